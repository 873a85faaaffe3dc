#include "host/data/csv_market_loader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "host/data/csv_bar_fields.h"
#include "host/data/csv_fields.h"
#include "host/data/csv_rows.h"
#include "host/data/data_error.h"
#include "host/data/instruments.h"
#include "host/data/market_limits.h"
#include "host/data/market_rules.h"
#include "host/data/timestamp_parse.h"

namespace btforge {

namespace {

enum Column : std::size_t { kTimestamp, kSymbol, kOpen, kHigh, kLow, kClose, kVolume, kFundingRate, kColumnCount };
constexpr std::array<CsvColumn, kColumnCount> kColumns{{{"timestamp"}, {"symbol"}, {"open"}, {"high"}, {"low"},
                                                        {"close"}, {"volume"}, {"funding_rate", false}}};

constexpr const char* kUnitAdvice = "give the unit with --timestamp-unit s|ms|us|ns";

struct SymbolState {
    std::string name;
    bool selected = false;
    std::size_t first_line = 0;
    std::int64_t last_timestamp_ms = 0;
    std::size_t last_line = 0;
    std::vector<Bar> bars;  // only when selected
};

// The rows of a long CSV (Note [Long CSV contract]), read by read_csv_rows.
class LongCsvReader {
public:
    LongCsvReader(std::string file, const MarketLoadOptions& options, const InstrumentTable* instruments)
        : file_(std::move(file)), options_(options), instruments_(instruments), units_(options.timestamp_unit, kUnitAdvice) {
        requested_.insert(options.symbols.begin(), options.symbols.end());
    }

    // Gives each row read by read_csv_rows its meaning; finish() once the last one is read.
    CsvRowCallback rows();
    void finish();
    std::vector<SymbolBars> take_symbols();
    CsvMarketFacts facts() const;

private:
    void header(const CsvRow& row);
    void data_row(const CsvRow& row);
    const CsvField& at(const CsvRow& row, Column c) const { return row.fields[column_of_[c]]; }

    std::string file_;
    const MarketLoadOptions& options_;
    const InstrumentTable* instruments_;
    std::unordered_set<std::string> requested_;
    EpochUnitDetector units_;

    bool have_header_ = false;
    std::size_t header_fields_ = 0;
    std::vector<std::size_t> column_of_;
    bool has_funding_column_ = false;
    std::size_t bars_ = 0;                   // of the selected symbols
    std::size_t bars_with_funding_rate_ = 0;
    std::size_t data_rows_ = 0;

    std::vector<SymbolState> symbols_;  // in order of first appearance
    std::unordered_map<std::string, std::size_t> symbol_index_;
    std::size_t last_symbol_ = static_cast<std::size_t>(-1);
    std::size_t n_selected_ = 0;
};

void LongCsvReader::header(const CsvRow& row) {
    header_fields_ = row.fields.size();
    column_of_ = map_csv_header(row, kColumns, "timestamp, symbol, open, high, low, close, volume[, funding_rate]");
    has_funding_column_ = column_of_[kFundingRate] != kCsvAbsent;
    have_header_ = true;
}

void LongCsvReader::data_row(const CsvRow& row) {
    if (row.fields.size() != header_fields_) {
        throw DataError(file_, row.line, std::min(row.fields.size(), header_fields_) + 1, "wrong-field-count",
                        "expected " + std::to_string(header_fields_) + " fields like the header, got " +
                            std::to_string(row.fields.size()));
    }
    ++data_rows_;

    const std::size_t ts_col = column_of_[kTimestamp];
    const std::int64_t timestamp = units_.timestamp_ms(row, ts_col);

    const std::size_t sym_col = column_of_[kSymbol];
    const std::string& symbol = at(row, kSymbol).text;
    if (last_symbol_ >= symbols_.size() || symbols_[last_symbol_].name != symbol) {
        const auto it = symbol_index_.find(symbol);
        if (it != symbol_index_.end()) {
            last_symbol_ = it->second;
        } else {
            if (const auto bad = symbol_name_break(symbol)) row.fail(sym_col, "bad-symbol", *bad);
            SymbolState state;
            state.name = symbol;
            state.selected = requested_.empty() || requested_.count(symbol) > 0;
            state.first_line = at(row, kSymbol).line;
            if (state.selected) {
                if (instruments_ != nullptr && instruments_->count(symbol) == 0) {
                    row.fail(sym_col, "unknown-symbol",
                         "symbol " + in_quotes(symbol) + " is not in the instruments file " +
                             options_.instruments_file->string());
                }
                if (++n_selected_ > static_cast<std::size_t>(kMaxSymbols)) {
                    row.fail(sym_col, "too-many-symbols",
                         "symbol " + in_quotes(symbol) + " is symbol number " + std::to_string(n_selected_) +
                             "; the kernels are built for at most " + std::to_string(kMaxSymbols) +
                             " (select fewer symbols)");
                }
            }
            last_symbol_ = symbols_.size();
            symbol_index_.emplace(symbol, last_symbol_);
            symbols_.push_back(std::move(state));
        }
    }
    SymbolState& state = symbols_[last_symbol_];

    // Note [Market rules]: the rule is market_rules.h's, the words say where both bars are.
    const std::optional<std::int64_t> previous =
        state.last_line != 0 ? std::optional<std::int64_t>(state.last_timestamp_ms) : std::nullopt;
    if (const auto broken = bar_time_break(previous, timestamp, options_.funding_interval_ms)) {
        if (broken->rule == "duplicate-timestamp") {
            row.fail(ts_col, broken->rule,
                 state.name + " has a second bar at " + describe_ms(timestamp) + " (the first is on line " +
                     std::to_string(state.last_line) + ")");
        }
        if (broken->rule == "unsorted-timestamps") {
            row.fail(ts_col, broken->rule,
                 state.name + " at " + describe_ms(timestamp) + " comes after its bar at " +
                     describe_ms(state.last_timestamp_ms) + " (line " + std::to_string(state.last_line) +
                     "); bars of a symbol must be in increasing time");
        }
        if (broken->rule == "too-many-funding-times") {
            row.fail(ts_col, broken->rule,
                 state.name + " at " + describe_ms(timestamp) + " settles " +
                     std::to_string(broken->funding_times) + " funding times since its bar on line " +
                     std::to_string(state.last_line) + "; one bar holds at most " +
                     std::to_string(std::numeric_limits<std::int32_t>::max()));
        }
        // The reader of the timestamp has refused one outside years 0000..9999 already.
        row.fail(ts_col, broken->rule, describe_ms(timestamp) + " is outside years 0000..9999");
    }

    Bar bar = csv_bar(row, BarFieldIndex{column_of_[kOpen], column_of_[kHigh], column_of_[kLow], column_of_[kClose],
                                         column_of_[kVolume]});
    bar.timestamp_ms = timestamp;
    bar.funding_rate = options_.default_funding_rate;
    const bool funding_given = has_funding_column_ && !csv_trim(at(row, kFundingRate).text).empty();
    if (state.selected) {
        ++bars_;
        if (funding_given) ++bars_with_funding_rate_;
    }
    if (funding_given) {
        bar.funding_rate = csv_funding_rate(row, column_of_[kFundingRate], "funding_rate", "funding time");
    }

    state.last_timestamp_ms = timestamp;
    state.last_line = row.line;
    if (state.selected) state.bars.push_back(bar);
}

CsvRowCallback LongCsvReader::rows() {
    return [this](std::span<const CsvField> fields, std::size_t line) {
        const CsvRow row{file_, fields, line};
        if (have_header_) {
            data_row(row);
        } else {
            header(row);
        }
    };
}

void LongCsvReader::finish() {
    if (!have_header_) throw DataError(file_, 0, 0, "empty-file", "the file has no header and no bars");
    if (data_rows_ == 0) throw DataError(file_, 0, 0, "empty-file", "the file has a header but no bars");
    for (const std::string& wanted : options_.symbols) {
        const auto it = symbol_index_.find(wanted);
        if (it == symbol_index_.end()) {
            std::string have;
            for (const SymbolState& s : symbols_) have += (have.empty() ? "" : ", ") + s.name;
            throw DataError(file_, 0, 0, "unknown-symbol",
                            "requested symbol " + in_quotes(wanted) + " is not in the file; it has: " + have);
        }
    }
}

CsvMarketFacts LongCsvReader::facts() const {
    CsvMarketFacts facts;
    facts.epoch_unit = units_.unit();
    facts.epoch_unit_detected = facts.epoch_unit.has_value() && units_.detected();
    facts.bars = bars_;
    facts.bars_with_funding_rate = bars_with_funding_rate_;
    return facts;
}

std::vector<SymbolBars> LongCsvReader::take_symbols() {
    std::vector<SymbolBars> out;
    for (SymbolState& s : symbols_) {
        if (!s.selected) continue;
        SymbolBars bars;
        bars.symbol = s.name;
        if (instruments_ != nullptr) bars.instrument = instruments_->at(s.name);
        bars.bars = std::move(s.bars);
        out.push_back(std::move(bars));
    }
    return out;
}

// Note [Long CSV contract] for bytes from anywhere: `read(rows)` feeds every
// row to `rows`. The same rules whether the text comes from a file, a pipe
// or memory.
Market load_long_csv(const std::string& name, const MarketLoadOptions& options, CsvMarketFacts* facts,
                     std::string* instruments_sha256, const std::function<void(const CsvRowCallback&)>& read) {
    if (!funding_rate_in_range(options.default_funding_rate)) {
        throw std::invalid_argument("the default funding rate must be within -" + shortest_text(kMaxAbsFundingRate) +
                                    ".." + shortest_text(kMaxAbsFundingRate) + ", got " +
                                    shortest_text(options.default_funding_rate));
    }
    if (!funding_interval_in_range(options.funding_interval_ms)) {
        throw std::invalid_argument("the funding interval must be " + std::to_string(kMinFundingIntervalMs) + " to " +
                                    std::to_string(kMaxFundingIntervalMs) + " ms, got " +
                                    std::to_string(options.funding_interval_ms));
    }

    std::optional<InstrumentTable> instruments;
    if (options.instruments_file) instruments = load_instruments(*options.instruments_file, instruments_sha256);

    LongCsvReader reader(name, options, instruments ? &*instruments : nullptr);
    read(reader.rows());
    reader.finish();
    if (facts != nullptr) *facts = reader.facts();
    try {
        return build_market(reader.take_symbols(), options.funding_interval_ms);
    } catch (const std::invalid_argument& e) {
        // The reader has checked everything else; only the size limit is left.
        throw DataError(name, 0, 0, "too-large", e.what());
    }
}

}  // namespace

Market load_market_csv(const std::filesystem::path& csv, const MarketLoadOptions& options, CsvMarketFacts* facts) {
    InputFile input = open_csv_file(csv, "market file");
    return load_market_csv(input, options, facts, nullptr);
}

Market load_market_csv(InputFile& csv, const MarketLoadOptions& options, CsvMarketFacts* facts,
                       MarketInputDigests* digests) {
    const std::string name = csv.path().string();
    std::optional<Sha256> csv_hash;
    if (digests != nullptr) csv_hash.emplace();
    std::string instruments_sha256;
    Market market = load_long_csv(name, options, facts, digests != nullptr ? &instruments_sha256 : nullptr,
                                  [&](const CsvRowCallback& rows) {
                                      read_csv_rows(name, csv, rows, csv_hash ? &*csv_hash : nullptr);
                                  });
    if (digests != nullptr) {
        digests->csv = csv_hash->hex();
        digests->instruments = std::move(instruments_sha256);
    }
    return market;
}

Market load_market_csv_text(const std::string& name, const std::vector<char>& bytes, const MarketLoadOptions& options,
                            CsvMarketFacts* facts) {
    return load_long_csv(name, options, facts, nullptr,
                         [&](const CsvRowCallback& rows) { read_csv_rows(name, bytes, rows); });
}

}  // namespace btforge
