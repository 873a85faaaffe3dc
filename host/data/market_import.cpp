#include "host/data/market_import.h"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "host/data/csv_bar_fields.h"
#include "host/data/csv_fields.h"
#include "host/data/csv_rows.h"
#include "host/data/data_error.h"

namespace btforge {

namespace {

constexpr const char* kUnitAdvice = "give the unit with --timestamp-unit s|ms|us|ns";

// A row's place, for the errors of a merge across files.
struct Origin {
    std::size_t file;
    std::size_t line;
};

struct SymbolRows {
    std::string symbol;
    std::vector<Bar> bars;
    std::vector<Origin> origins;
};

std::string symbol_of_file(const std::filesystem::path& file, const std::string& given) {
    if (!given.empty()) return given;
    const std::string stem = file.filename().string();
    const std::size_t dash = stem.find('-');
    const std::size_t dot = stem.find('.');
    const std::string symbol = stem.substr(0, std::min(dash, dot));
    if (symbol.empty() || dash == std::string::npos) {
        throw DataError(file.string(), 0, 0, "no-symbol",
                        "cannot tell the symbol from the file name (expected SYMBOL-...; e.g. BTCUSDT-1m-2024-01.csv): "
                        "give it with --symbol");
    }
    return symbol;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    const std::int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

// The rows of every file, per symbol, in order of first appearance.
class BarCollector {
public:
    void add(std::size_t file_index, const std::string& symbol, const Bar& bar, std::size_t line) {
        auto [it, added] = index_.emplace(symbol, rows_.size());
        if (added) rows_.push_back(SymbolRows{symbol, {}, {}});
        rows_[it->second].bars.push_back(bar);
        rows_[it->second].origins.push_back({file_index, line});
        ++count_;
    }
    std::vector<SymbolRows>& rows() { return rows_; }
    std::size_t count() const { return count_; }

private:
    std::vector<SymbolRows> rows_;
    std::unordered_map<std::string, std::size_t> index_;
    std::size_t count_ = 0;
};

void read_binance_klines(const std::filesystem::path& file, std::size_t file_index, const ImportOptions& options,
                         BarCollector& out) {
    const std::string name = file.string();
    const std::string symbol = symbol_of_file(file, options.symbol);
    InputFile bytes = open_csv_file(file, "kline file");
    EpochUnitDetector units(options.timestamp_unit, kUnitAdvice);
    std::size_t fields_per_row = 0;
    bool first = true;
    read_csv_rows(name, bytes, [&](std::span<const CsvField> fields, std::size_t line) {
        const CsvRow row{name, fields, line};
        if (first) {
            first = false;
            fields_per_row = fields.size();
            if (fields_per_row < 6) {
                throw DataError(name, line, fields_per_row + 1, "wrong-field-count",
                                "a Binance kline row has open_time, open, high, low, close, volume, close_time, ...; "
                                "this one has " + std::to_string(fields_per_row) + " fields");
            }
            if (csv_lowercase(csv_trim(fields[0].text)) == "open_time") return;  // the header row of newer dumps
        }
        if (fields.size() != fields_per_row) {
            throw DataError(name, line, std::min(fields.size(), fields_per_row) + 1, "wrong-field-count",
                            "expected " + std::to_string(fields_per_row) + " fields like the first row, got " +
                                std::to_string(fields.size()));
        }
        Bar bar = csv_bar(row, BarFieldIndex{1, 2, 3, 4, 5});
        bar.timestamp_ms = units.timestamp_ms(row, 0);
        out.add(file_index, symbol, bar, line);
    });
}

void read_mapped_csv(const std::filesystem::path& file, std::size_t file_index, const ImportOptions& options,
                     BarCollector& out) {
    const std::string name = file.string();
    InputFile bytes = open_csv_file(file, "data file");
    EpochUnitDetector units(options.timestamp_unit, kUnitAdvice);
    // The file's column of each btforge column.
    constexpr std::array<std::string_view, 7> kNames{"timestamp", "open", "high", "low", "close", "volume", "symbol"};
    std::vector<std::string> wanted(kNames.size());
    for (const auto& [ours, theirs] : options.columns) {
        const auto it = std::find(kNames.begin(), kNames.end(), ours);
        if (it == kNames.end()) {
            throw std::invalid_argument("--columns names '" + ours + "', which is not one of timestamp, open, high, "
                                        "low, close, volume, symbol");
        }
        wanted[static_cast<std::size_t>(it - kNames.begin())] = csv_lowercase(theirs);
    }
    for (std::size_t c = 0; c < 6; ++c) {
        if (wanted[c].empty()) wanted[c] = std::string(kNames[c]);  // unmapped: the same name
    }
    const bool symbol_column = !wanted[6].empty();
    const std::string file_symbol = symbol_column ? std::string() : symbol_of_file(file, options.symbol);
    std::vector<CsvColumn> columns;
    for (std::size_t c = 0; c < kNames.size(); ++c) columns.push_back(CsvColumn{wanted[c], c < 6 || symbol_column});
    std::string expected;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (columns[c].required) expected += (expected.empty() ? "" : ", ") + std::string(columns[c].name);
    }
    expected += " (--columns maps them)";
    std::vector<std::size_t> at;
    std::size_t header_fields = 0;
    read_csv_rows(name, bytes, [&](std::span<const CsvField> fields, std::size_t line) {
        const CsvRow row{name, fields, line};
        if (at.empty()) {
            header_fields = fields.size();
            at = map_csv_header(row, columns, expected);
            return;
        }
        if (fields.size() != header_fields) {
            throw DataError(name, line, std::min(fields.size(), header_fields) + 1, "wrong-field-count",
                            "expected " + std::to_string(header_fields) + " fields like the header, got " +
                                std::to_string(fields.size()));
        }
        Bar bar = csv_bar(row, BarFieldIndex{at[1], at[2], at[3], at[4], at[5]});
        bar.timestamp_ms = units.timestamp_ms(row, at[0]);
        std::string symbol = file_symbol;
        if (symbol_column) {
            symbol = fields[at[6]].text;
            if (symbol.empty()) row.fail(at[6], "bad-symbol", "the symbol is empty");
        }
        out.add(file_index, symbol, bar, line);
    });
    if (at.empty()) throw DataError(name, 0, 0, "empty-file", "the file has no header");
}

bool same_values(const Bar& a, const Bar& b) {
    return a.open == b.open && a.high == b.high && a.low == b.low && a.close == b.close && a.volume == b.volume;
}

}  // namespace

std::optional<ImportFormat> parse_import_format(std::string_view name) {
    if (name == "binance-klines") return ImportFormat::BinanceKlines;
    if (name == "binance-funding") return ImportFormat::BinanceFunding;
    if (name == "csv") return ImportFormat::MappedCsv;
    return std::nullopt;
}

std::optional<std::int64_t> parse_bar_length(std::string_view text) {
    if (text.size() < 2) return std::nullopt;
    const char unit = text.back();
    std::int64_t scale = 0;
    if (unit == 's') scale = 1'000;
    if (unit == 'm') scale = 60'000;
    if (unit == 'h') scale = 3'600'000;
    if (unit == 'd') scale = 86'400'000;
    if (scale == 0) return std::nullopt;
    std::int64_t count = 0;
    for (const char c : text.substr(0, text.size() - 1)) {
        if (c < '0' || c > '9' || count > 1'000'000) return std::nullopt;
        count = count * 10 + (c - '0');
    }
    if (count == 0) return std::nullopt;
    return count * scale;
}

std::string describe_bar_length(std::int64_t ms) {
    for (const auto& [scale, unit] : {std::pair<std::int64_t, char>{86'400'000, 'd'}, {3'600'000, 'h'}, {60'000, 'm'},
                                      {1'000, 's'}}) {
        if (ms % scale == 0) return std::to_string(ms / scale) + unit;
    }
    return std::to_string(ms) + "ms";
}

SymbolGaps find_gaps(const std::string& symbol, std::span<const Bar> bars) {
    SymbolGaps g;
    g.symbol = symbol;
    g.bars = bars.size();
    if (bars.empty()) return g;
    g.first_ms = bars.front().timestamp_ms;
    g.last_ms = bars.back().timestamp_ms;
    std::map<std::int64_t, std::size_t> steps;
    for (std::size_t k = 1; k < bars.size(); ++k) ++steps[bars[k].timestamp_ms - bars[k - 1].timestamp_ms];
    std::size_t most = 0;
    for (const auto& [step, count] : steps) {
        if (count > most) {
            most = count;
            g.interval_ms = step;
        }
    }
    for (std::size_t k = 1; k < bars.size(); ++k) {
        const std::int64_t step = bars[k].timestamp_ms - bars[k - 1].timestamp_ms;
        if (step <= g.interval_ms) continue;
        ++g.gaps;
        g.missing_bars += step / g.interval_ms - 1;
        if (step > g.largest_gap_ms) {
            g.largest_gap_ms = step;
            g.largest_gap_after_ms = bars[k - 1].timestamp_ms;
        }
    }
    return g;
}

std::string describe_gaps(const SymbolGaps& g) {
    std::string text = g.symbol + ": " + std::to_string(g.bars) + " bars " + describe_ms(g.first_ms) + " .. " +
                       describe_ms(g.last_ms);
    if (g.interval_ms > 0) text += ", every " + describe_bar_length(g.interval_ms);
    if (g.gaps == 0) {
        text += ", no gap";
    } else {
        text += ", " + std::to_string(g.gaps) + (g.gaps == 1 ? " gap" : " gaps") + " (" +
                std::to_string(g.missing_bars) + (g.missing_bars == 1 ? " bar" : " bars") + " missing; the longest " +
                describe_bar_length(g.largest_gap_ms) + " after " + describe_ms(g.largest_gap_after_ms) + ")";
    }
    if (g.duplicates_dropped != 0) {
        text += "; " + std::to_string(g.duplicates_dropped) +
                (g.duplicates_dropped == 1 ? " row" : " rows") + " given twice with the same values, kept once";
    }
    return text;
}

std::vector<Bar> resample_bars(std::span<const Bar> bars, std::int64_t bar_ms) {
    std::vector<Bar> out;
    for (const Bar& b : bars) {
        const std::int64_t start = floor_div(b.timestamp_ms, bar_ms) * bar_ms;
        if (out.empty() || out.back().timestamp_ms != start) {
            Bar first = b;
            first.timestamp_ms = start;
            out.push_back(first);
            continue;
        }
        Bar& r = out.back();
        r.high = std::max(r.high, b.high);
        r.low = std::min(r.low, b.low);
        r.close = b.close;
        r.volume += b.volume;
    }
    return out;
}

ImportedBars import_bars(std::span<const std::filesystem::path> files, const ImportOptions& options) {
    BarCollector collector;
    for (std::size_t f = 0; f < files.size(); ++f) {
        if (options.format == ImportFormat::BinanceKlines) {
            read_binance_klines(files[f], f, options, collector);
        } else {
            read_mapped_csv(files[f], f, options, collector);
        }
    }
    ImportedBars out;
    out.rows = collector.count();
    for (SymbolRows& rows : collector.rows()) {
        std::vector<std::size_t> order(rows.bars.size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return rows.bars[a].timestamp_ms < rows.bars[b].timestamp_ms;
        });
        std::vector<Bar> bars;
        std::size_t dropped = 0;
        std::size_t previous = 0;
        for (const std::size_t k : order) {
            if (!bars.empty() && bars.back().timestamp_ms == rows.bars[k].timestamp_ms) {
                if (same_values(bars.back(), rows.bars[k])) {
                    ++dropped;
                    continue;
                }
                const Origin here = rows.origins[k];
                const Origin there = rows.origins[previous];
                throw DataError(files[here.file].string(), here.line, 1, "duplicate-timestamp",
                                rows.symbol + " has another bar at " + describe_ms(rows.bars[k].timestamp_ms) +
                                    " with other values: " + files[there.file].string() + " line " +
                                    std::to_string(there.line));
            }
            bars.push_back(rows.bars[k]);
            previous = k;
        }
        SymbolGaps gaps = find_gaps(rows.symbol, bars);
        gaps.duplicates_dropped = dropped;
        if (options.bar_ms != 0) {
            if (gaps.interval_ms > options.bar_ms || (gaps.interval_ms > 0 && options.bar_ms % gaps.interval_ms != 0)) {
                throw std::invalid_argument("--bar " + describe_bar_length(options.bar_ms) + " cannot be made of " +
                                            rows.symbol + "'s " + describe_bar_length(gaps.interval_ms) +
                                            " bars (it must be a multiple of them)");
            }
            bars = resample_bars(bars, options.bar_ms);
        }
        out.gaps.push_back(gaps);
        SymbolBars symbol;
        symbol.symbol = rows.symbol;
        symbol.bars = std::move(bars);
        out.symbols.push_back(std::move(symbol));
    }
    return out;
}

FundingHistory import_funding(std::span<const std::filesystem::path> files, const ImportOptions& options) {
    FundingHistory history;
    history.file = files.empty() ? std::string() : files.front().string();
    std::unordered_map<std::string, std::size_t> index;
    std::vector<std::vector<std::size_t>> file_of;  // per symbol, per settlement
    constexpr std::array<CsvColumn, 2> kColumns{{{"calc_time"}, {"last_funding_rate"}}};
    for (std::size_t f = 0; f < files.size(); ++f) {
        const std::string name = files[f].string();
        const std::string symbol = symbol_of_file(files[f], options.symbol);
        InputFile bytes = open_csv_file(files[f], "funding-rate file");
        EpochUnitDetector units(options.timestamp_unit, kUnitAdvice);
        std::vector<std::size_t> at;
        std::size_t header_fields = 0;
        auto [it, added] = index.emplace(symbol, history.symbols.size());
        if (added) {
            history.symbols.push_back(symbol);
            history.settlements.emplace_back();
            file_of.emplace_back();
        }
        auto& list = history.settlements[it->second];
        auto& files_of = file_of[it->second];
        read_csv_rows(name, bytes, [&](std::span<const CsvField> fields, std::size_t line) {
            const CsvRow row{name, fields, line};
            if (at.empty()) {
                header_fields = fields.size();
                at = map_csv_header(row, kColumns, "calc_time, funding_interval_hours, last_funding_rate");
                return;
            }
            if (fields.size() != header_fields) {
                throw DataError(name, line, std::min(fields.size(), header_fields) + 1, "wrong-field-count",
                                "expected " + std::to_string(header_fields) + " fields like the header, got " +
                                    std::to_string(fields.size()));
            }
            FundingSettlement s;
            s.time_ms = units.timestamp_ms(row, at[0]);
            s.rate = csv_funding_rate(row, at[1], "last_funding_rate", "settlement");
            s.line = line;
            list.push_back(s);
            files_of.push_back(f);
        });
        if (at.empty()) throw DataError(name, 0, 0, "empty-file", "the file has no header");
    }
    for (std::size_t s = 0; s < history.symbols.size(); ++s) {
        auto& list = history.settlements[s];
        std::vector<std::size_t> order(list.size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return list[a].time_ms < list[b].time_ms; });
        std::vector<FundingSettlement> merged;
        std::size_t previous = 0;
        for (const std::size_t k : order) {
            if (!merged.empty() && merged.back().time_ms == list[k].time_ms) {
                if (merged.back().rate == list[k].rate) continue;
                throw DataError(files[file_of[s][k]].string(), list[k].line, 1, "duplicate-timestamp",
                                history.symbols[s] + " has another rate at " + describe_ms(list[k].time_ms) + ": " +
                                    files[file_of[s][previous]].string() + " line " + std::to_string(list[previous].line));
            }
            merged.push_back(list[k]);
            previous = k;
        }
        list = std::move(merged);
    }
    return history;
}

}  // namespace btforge
