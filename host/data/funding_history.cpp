#include "host/data/funding_history.h"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "host/data/csv_bar_fields.h"
#include "host/data/csv_fields.h"
#include "host/data/market_rules.h"
#include "host/data/csv_rows.h"
#include "host/data/data_error.h"
#include "host/data/market_import.h"
#include "host/data/market_limits.h"

namespace btforge {

namespace {

enum Column : std::size_t { kTimestamp, kSymbol, kRate, kColumnCount };
constexpr std::array<CsvColumn, kColumnCount> kColumns{{{"timestamp"}, {"symbol"}, {"rate"}}};

}  // namespace

bool settlements_too_close(const FundingSettlement& earlier, const FundingSettlement& later) {
    return later.time_ms - earlier.time_ms < kMinSettlementSpacingMs;
}

std::string settlements_too_close_message(const std::string& symbol, const FundingSettlement& here,
                                          const FundingSettlement& other, const std::string& there) {
    const std::int64_t apart = std::max(here.time_ms, other.time_ms) - std::min(here.time_ms, other.time_ms);
    return symbol + " settles at " + describe_ms(here.time_ms) + ", " + describe_bar_length(apart) + " from its "
           "settlement at " + describe_ms(other.time_ms) + " (" + there + "): settlements of a symbol are at "
           "least " + describe_bar_length(kMinSettlementSpacingMs) + " apart (no exchange settles more often than "
           "hourly)";
}

FundingHistory load_funding_history(const std::filesystem::path& file, std::optional<EpochUnit> timestamp_unit) {
    FundingHistory history;
    history.file = file.string();
    InputFile bytes = open_csv_file(file, "funding file");
    EpochUnitDetector units(timestamp_unit, "give the unit with --timestamp-unit s|ms|us|ns");
    std::vector<std::size_t> column_of;
    std::size_t header_fields = 0;
    std::unordered_map<std::string, std::size_t> index;
    read_csv_rows(history.file, bytes, [&](std::span<const CsvField> fields, std::size_t line) {
        const CsvRow row{history.file, fields, line};
        if (column_of.empty()) {
            header_fields = fields.size();
            column_of = map_csv_header(row, kColumns, "timestamp, symbol, rate");
            return;
        }
        if (fields.size() != header_fields) {
            throw DataError(history.file, line, std::min(fields.size(), header_fields) + 1, "wrong-field-count",
                            "expected " + std::to_string(header_fields) + " fields like the header, got " +
                                std::to_string(fields.size()));
        }
        FundingSettlement settlement;
        settlement.line = line;
        settlement.time_ms = units.timestamp_ms(row, column_of[kTimestamp]);
        const std::string& symbol = fields[column_of[kSymbol]].text;
        if (const std::optional<std::string> problem = symbol_name_break(symbol)) {
            row.fail(column_of[kSymbol], "bad-symbol", *problem);
        }
        settlement.rate = csv_funding_rate(row, column_of[kRate], "rate", "settlement");
        auto [it, added] = index.emplace(symbol, history.symbols.size());
        if (added) {
            history.symbols.push_back(symbol);
            history.settlements.emplace_back();
        }
        history.settlements[it->second].push_back(settlement);
    });
    if (column_of.empty()) throw DataError(history.file, 0, 0, "empty-file", "the file has no header and no rates");
    if (history.symbols.empty()) throw DataError(history.file, 0, 0, "empty-file", "the file has a header but no rates");
    for (std::size_t s = 0; s < history.symbols.size(); ++s) {
        auto& list = history.settlements[s];
        std::stable_sort(list.begin(), list.end(),
                         [](const FundingSettlement& a, const FundingSettlement& b) { return a.time_ms < b.time_ms; });
        for (std::size_t k = 1; k < list.size(); ++k) {
            // Reported at the later row of the file, naming the other.
            const bool in_file_order = list[k].line > list[k - 1].line;
            const FundingSettlement& here = in_file_order ? list[k] : list[k - 1];
            const FundingSettlement& there = in_file_order ? list[k - 1] : list[k];
            if (list[k].time_ms == list[k - 1].time_ms) {
                throw DataError(history.file, here.line, column_of[kTimestamp] + 1, "duplicate-timestamp",
                                history.symbols[s] + " has a second rate at " + describe_ms(list[k].time_ms) +
                                    " (the first is on line " + std::to_string(there.line) + ")");
            }
            if (settlements_too_close(list[k - 1], list[k])) {
                throw DataError(history.file, here.line, column_of[kTimestamp] + 1, "settlements-too-close",
                                settlements_too_close_message(history.symbols[s], here, there,
                                                              "line " + std::to_string(there.line)));
            }
        }
    }
    history.epoch_unit = units.unit();
    history.epoch_unit_detected = history.epoch_unit.has_value() && units.detected();
    return history;
}

FundingHistoryUse apply_funding_history(Market& market, const FundingHistory& history) {
    FundingHistoryUse use;
    std::unordered_map<std::string, std::size_t> in_file;
    for (std::size_t h = 0; h < history.symbols.size(); ++h) {
        in_file.emplace(history.symbols[h], h);
        if (market.symbol_index(history.symbols[h]) < 0) use.unknown_symbols.push_back(history.symbols[h]);
    }
    for (int s = 0; s < market.n_symbols(); ++s) {
        const auto found = in_file.find(market.symbols[static_cast<std::size_t>(s)]);
        if (found == in_file.end()) {
            use.symbols_without_rates.push_back(market.symbols[static_cast<std::size_t>(s)]);
            continue;
        }
        ++use.symbols_covered;
        for (int t = 0; t < market.n_bars(); ++t) {
            market.funding_events[market.index(s, t)] = 0;
            market.funding_rate[market.index(s, t)] = 0.0;
        }
        const std::vector<int>& own = market.own_bars[static_cast<std::size_t>(s)];
        const std::vector<FundingSettlement>& list = history.settlements[found->second];
        std::size_t k = 1;  // the own bar that charges the next settlement
        for (std::size_t n = 0; n < list.size();) {
            const std::int64_t time = list[n].time_ms;
            if (own.empty() || time <= market.timestamp_ms[static_cast<std::size_t>(own.front())]) {
                ++use.before_first_bar;
                ++n;
                continue;
            }
            while (k < own.size() && market.timestamp_ms[static_cast<std::size_t>(own[k])] < time) ++k;
            if (k >= own.size()) {
                ++use.after_last_bar;
                ++n;
                continue;
            }
            // Every settlement bar k charges: (own bar k-1, own bar k].
            const std::int64_t bar_time = market.timestamp_ms[static_cast<std::size_t>(own[k])];
            std::size_t end = n;
            bool equal = true;
            double sum = 0.0;
            for (; end < list.size() && list[end].time_ms <= bar_time; ++end) {
                equal = equal && list[end].rate == list[n].rate;
                sum += list[end].rate;
            }
            // Note [Funding history]: equal rates one by one (as the market's
            // own funding charges several times in a bar), different ones as
            // one settlement of their sum.
            const std::size_t i = market.index(s, own[k]);
            const auto count = static_cast<std::int32_t>(end - n);
            market.funding_events[i] = equal ? count : 1;
            market.funding_rate[i] = equal ? list[n].rate : sum;
            ++use.bars_charged;
            use.settlements_charged += end - n;
            n = end;
        }
    }
    return use;
}

std::string describe_funding_history_use(const FundingHistory& history, const FundingHistoryUse& use) {
    const auto count = [](std::size_t n, const char* one, const char* many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    std::string text = "the funding file " + history.file + ": " +
                       count(use.settlements_charged, "settlement", "settlements") + " of " +
                       count(use.symbols_covered, "symbol", "symbols") + " charged at their own times (" +
                       count(use.bars_charged, "bar", "bars") + ")";
    const std::size_t not_charged = use.before_first_bar + use.after_last_bar;
    if (not_charged != 0) {
        text += "; " + std::to_string(not_charged) + " not charged, at or before a symbol's first bar (" +
                std::to_string(use.before_first_bar) + ") or after its last (" + std::to_string(use.after_last_bar) +
                ")";
    }
    const auto list = [](const std::vector<std::string>& names) {
        std::string out;
        for (std::size_t i = 0; i < names.size() && i < 8; ++i) out += (i ? ", " : "") + names[i];
        if (names.size() > 8) out += " and " + std::to_string(names.size() - 8) + " more";
        return out;
    };
    if (!use.unknown_symbols.empty()) text += "; not in the market, ignored: " + list(use.unknown_symbols);
    if (!use.symbols_without_rates.empty()) {
        text += "; without rates in it, funded as before: " + list(use.symbols_without_rates);
    }
    return text;
}

}  // namespace btforge
