#include "host/data/csv_market_loader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <exception>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <csv.h>

#include "host/data/data_error.h"
#include "host/data/instruments.h"
#include "host/data/market_limits.h"
#include "host/data/timestamp_parse.h"

namespace btforge {

namespace {

enum Column : std::size_t { kTimestamp, kSymbol, kOpen, kHigh, kLow, kClose, kVolume, kFundingRate, kColumnCount };
constexpr std::array<std::string_view, kColumnCount> kColumnNames{
    "timestamp", "symbol", "open", "high", "low", "close", "volume", "funding_rate"};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::string lowercase(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

std::string in_quotes(std::string_view s) {
    constexpr std::size_t kMax = 40;
    std::string text = "\"";
    text.append(s.substr(0, kMax));
    if (s.size() > kMax) text += "...";
    return text + "\"";
}

// The shortest text that reads back as `value`, for limits in messages.
std::string shortest(double value) {
    char buf[32];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, value);
    return ec == std::errc() ? std::string(buf, ptr) : std::string("?");
}

constexpr const char* kUnitAdvice = "give the unit with --timestamp-unit s|ms|us|ns";

std::string describe_ms(std::int64_t ms) {
    try {
        return format_timestamp_iso(ms);
    } catch (const std::out_of_range&) {
        return std::to_string(ms) + " ms";
    }
}

std::vector<char> read_file(const std::filesystem::path& file) {
    std::error_code kind_error;
    if (std::filesystem::is_directory(file, kind_error)) {
        throw DataError(file.string(), 0, 0, "cannot-read", "is a directory, not a market file");
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) throw DataError(file.string(), 0, 0, "cannot-read", "cannot open the market file");
    std::vector<char> bytes;
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (!ec) bytes.reserve(static_cast<std::size_t>(size));
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) throw DataError(file.string(), 0, 0, "cannot-read", "reading the market file failed");
    return bytes;
}

struct SymbolState {
    std::string name;
    bool selected = false;
    std::size_t first_line = 0;
    std::int64_t last_timestamp_ms = 0;
    std::size_t last_line = 0;
    std::vector<Bar> bars;  // only when selected
};

// Note [Errors out of libcsv callbacks]
// libcsv is C: an exception must not unwind through csv_parse. The callbacks
// catch everything, park it in `failure`, and turn into no-ops; the driver
// loop rethrows it as soon as csv_parse returns.
class LongCsvReader {
public:
    LongCsvReader(std::string file, const MarketLoadOptions& options, const InstrumentTable* instruments)
        : file_(std::move(file)), options_(options), instruments_(instruments) {
        requested_.insert(options.symbols.begin(), options.symbols.end());
    }

    void parse(const std::vector<char>& bytes);
    std::vector<SymbolBars> take_symbols();
    CsvMarketFacts facts() const;

private:
    struct Field {
        std::string text;
        std::size_t line = 0;
    };

    static void on_field(void* data, std::size_t length, void* self) {
        static_cast<LongCsvReader*>(self)->field(static_cast<const char*>(data), length);
    }
    static void on_row(int /*terminator*/, void* self) { static_cast<LongCsvReader*>(self)->row(); }

    void field(const char* data, std::size_t length) noexcept;
    void row() noexcept;
    void header();
    void data_row();
    std::int64_t timestamp_ms();
    EpochUnit integer_unit(std::int64_t value);
    double number(std::size_t column);
    double price(Column c);
    [[noreturn]] void fail(std::size_t field_index, const std::string& rule, const std::string& message) const;

    const Field& at(Column c) const { return fields_[column_of_[c]]; }

    std::string file_;
    const MarketLoadOptions& options_;
    const InstrumentTable* instruments_;
    std::unordered_set<std::string> requested_;

    std::size_t line_ = 1;  // physical line being fed to libcsv
    std::vector<Field> fields_;
    std::size_t n_fields_ = 0;  // fields_ is reused: only the first n_fields_ are this row's
    std::size_t row_line_ = 0;
    std::size_t last_row_end_line_ = 0;
    std::exception_ptr failure_;

    bool have_header_ = false;
    std::size_t header_line_ = 0;
    std::size_t header_fields_ = 0;
    std::array<std::size_t, kColumnCount> column_of_{};
    bool has_funding_column_ = false;
    std::size_t bars_ = 0;                   // of the selected symbols
    std::size_t bars_with_funding_rate_ = 0;
    std::size_t data_rows_ = 0;

    // Integer timestamps seen so far: Note [Epoch units].
    bool saw_integer_ = false;
    std::optional<EpochUnit> detected_unit_;
    std::int64_t first_integer_ = 0;
    std::size_t first_integer_line_ = 0;
    std::int64_t min_integer_ = 0;
    std::int64_t max_integer_ = 0;

    std::vector<SymbolState> symbols_;  // in order of first appearance
    std::unordered_map<std::string, std::size_t> symbol_index_;
    std::size_t last_symbol_ = static_cast<std::size_t>(-1);
    std::size_t n_selected_ = 0;
};

void LongCsvReader::fail(std::size_t field_index, const std::string& rule, const std::string& message) const {
    const std::size_t line = field_index < n_fields_ ? fields_[field_index].line : row_line_;
    throw DataError(file_, line, field_index + 1, rule, message);
}

void LongCsvReader::field(const char* data, std::size_t length) noexcept {
    if (failure_) return;
    try {
        if (n_fields_ == 0) row_line_ = line_;
        if (n_fields_ == fields_.size()) fields_.emplace_back();
        Field& f = fields_[n_fields_++];
        f.text.assign(data == nullptr ? "" : data, data == nullptr ? 0 : length);
        f.line = line_;
    } catch (...) {
        failure_ = std::current_exception();
    }
}

void LongCsvReader::row() noexcept {
    if (failure_) return;
    try {
        if (have_header_) {
            data_row();
        } else {
            header();
        }
        n_fields_ = 0;
        last_row_end_line_ = line_;
    } catch (...) {
        failure_ = std::current_exception();
    }
}

void LongCsvReader::header() {
    header_line_ = row_line_;
    header_fields_ = n_fields_;
    constexpr std::size_t kAbsent = static_cast<std::size_t>(-1);
    column_of_.fill(kAbsent);
    for (std::size_t i = 0; i < n_fields_; ++i) {
        const std::string name = lowercase(trim(fields_[i].text));
        for (std::size_t c = 0; c < kColumnCount; ++c) {
            if (name != kColumnNames[c]) continue;
            if (column_of_[c] != kAbsent) {
                fail(i, "duplicate-column",
                     "column \"" + name + "\" appears twice (fields " + std::to_string(column_of_[c] + 1) + " and " +
                         std::to_string(i + 1) + ")");
            }
            column_of_[c] = i;
        }
    }
    for (std::size_t c = 0; c < kColumnCount; ++c) {
        if (c == kFundingRate || column_of_[c] != kAbsent) continue;
        std::string have;
        for (std::size_t i = 0; i < n_fields_; ++i) have += (i ? ", " : "") + in_quotes(trim(fields_[i].text));
        throw DataError(file_, header_line_, 0, "missing-column",
                        "no \"" + std::string(kColumnNames[c]) +
                            "\" column; the first line must be a header naming timestamp, symbol, open, high, low, "
                            "close, volume[, funding_rate]; it has: " + have);
    }
    has_funding_column_ = column_of_[kFundingRate] != kAbsent;
    have_header_ = true;
}

double LongCsvReader::number(std::size_t column) {
    const Field& f = fields_[column];
    std::string_view text = trim(f.text);
    const std::string name(kColumnNames[static_cast<std::size_t>(
        std::find(column_of_.begin(), column_of_.end(), column) - column_of_.begin())]);
    if (text.empty()) fail(column, "not-a-number", name + " is empty");
    if (text.front() == '+') text.remove_prefix(1);
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range) {
        fail(column, "not-a-number", name + " " + in_quotes(f.text) + " is out of the range of a double");
    }
    if (ec != std::errc() || ptr != text.data() + text.size()) {
        fail(column, "not-a-number", name + " " + in_quotes(f.text) + " is not a number");
    }
    if (!std::isfinite(value)) fail(column, "not-a-number", name + " " + in_quotes(f.text) + " is not finite");
    return value;
}

double LongCsvReader::price(Column c) {
    const double value = number(column_of_[c]);
    if (price_in_range(value)) return value;
    const std::string what = std::string(kColumnNames[c]) + " " + in_quotes(at(c).text);
    if (!(value > 0.0)) fail(column_of_[c], "non-positive-price", what + " must be positive");
    fail(column_of_[c], "price-out-of-range",
         what + " is outside " + shortest(kMinPrice) + ".." + shortest(kMaxPrice) + ", the prices a market may hold");
}

// The unit of an integer timestamp of this row: given, or detected and the
// same for the whole file (Note [Epoch units]).
EpochUnit LongCsvReader::integer_unit(std::int64_t value) {
    if (!saw_integer_) {
        saw_integer_ = true;
        min_integer_ = max_integer_ = value;
    }
    min_integer_ = std::min(min_integer_, value);
    max_integer_ = std::max(max_integer_, value);
    if (options_.timestamp_unit) return *options_.timestamp_unit;

    const std::size_t col = column_of_[kTimestamp];
    const std::optional<EpochUnit> unit = plausible_epoch_unit(value);
    if (unit && unit == detected_unit_) return *unit;
    const std::string window = describe_plausible_window();  // only for the messages
    if (!detected_unit_) {
        if (!unit) {
            fail(col, "ambiguous-timestamp-unit",
                 "cannot tell the unit of epoch timestamp " + std::to_string(value) + ": it is a date in " + window +
                     " in none of s, ms, us, ns; " + kUnitAdvice);
        }
        detected_unit_ = unit;
        first_integer_ = value;
        first_integer_line_ = at(kTimestamp).line;
        return *unit;
    }
    fail(col, "ambiguous-timestamp-unit",
         "cannot tell the unit of the epoch timestamps: " + std::to_string(value) + " is a date in " + window +
             (unit ? " only in " + std::string(epoch_unit_name(*unit)) : std::string(" in no unit")) +
             ", but the first one, " + std::to_string(first_integer_) + " on line " +
             std::to_string(first_integer_line_) + ", only in " + std::string(epoch_unit_name(*detected_unit_)) +
             "; the integer timestamps so far range from " + std::to_string(min_integer_) + " to " +
             std::to_string(max_integer_) + "; " + kUnitAdvice);
}

std::int64_t LongCsvReader::timestamp_ms() {
    const std::size_t col = column_of_[kTimestamp];
    const std::string& text = at(kTimestamp).text;
    const auto parsed = parse_timestamp(trim(text));
    if (!parsed) {
        fail(col, "bad-timestamp",
             in_quotes(text) +
                 " is neither an integer epoch time (s, ms, us or ns) nor ISO-8601 UTC "
                 "(YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|+HH:MM])");
    }
    if (!parsed->is_integer) {
        if (!timestamp_in_range(parsed->value)) {
            fail(col, "timestamp-out-of-range", in_quotes(text) + " is outside years 0000..9999 in UTC");
        }
        return parsed->value;
    }
    const EpochUnit unit = integer_unit(parsed->value);
    const EpochMs converted = epoch_to_ms(parsed->value, unit);
    if (converted.result == EpochConversion::Exact) return converted.ms;
    const std::string what = "epoch timestamp " + in_quotes(text) + " in " + std::string(epoch_unit_name(unit)) +
                             (options_.timestamp_unit ? "" : " (detected)");
    if (converted.result == EpochConversion::SubMillisecond) {
        fail(col, "sub-millisecond-timestamp",
             what + " is not a whole number of milliseconds; bars are timed to the millisecond and rounding could "
                    "merge two of them");
    }
    fail(col, "timestamp-out-of-range", what + " is outside years 0000..9999");
}

void LongCsvReader::data_row() {
    if (n_fields_ != header_fields_) {
        throw DataError(file_, row_line_, std::min(n_fields_, header_fields_) + 1, "wrong-field-count",
                        "expected " + std::to_string(header_fields_) + " fields like the header, got " +
                            std::to_string(n_fields_));
    }
    ++data_rows_;

    const std::size_t ts_col = column_of_[kTimestamp];
    const std::int64_t timestamp = timestamp_ms();

    const std::size_t sym_col = column_of_[kSymbol];
    const std::string& symbol = at(kSymbol).text;
    if (last_symbol_ >= symbols_.size() || symbols_[last_symbol_].name != symbol) {
        const auto it = symbol_index_.find(symbol);
        if (it != symbol_index_.end()) {
            last_symbol_ = it->second;
        } else {
            if (symbol.empty() || trim(symbol).size() != symbol.size()) {
                fail(sym_col, "bad-symbol", "symbol " + in_quotes(symbol) + " is empty or has surrounding spaces");
            }
            for (const char c : symbol) {
                if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
                    fail(sym_col, "bad-symbol", "symbol " + in_quotes(symbol) + " contains a control character");
                }
            }
            SymbolState state;
            state.name = symbol;
            state.selected = requested_.empty() || requested_.count(symbol) > 0;
            state.first_line = at(kSymbol).line;
            if (state.selected) {
                if (instruments_ != nullptr && instruments_->count(symbol) == 0) {
                    fail(sym_col, "unknown-symbol",
                         "symbol " + in_quotes(symbol) + " is not in the instruments file " +
                             options_.instruments_file->string());
                }
                if (++n_selected_ > static_cast<std::size_t>(kMaxSymbols)) {
                    fail(sym_col, "too-many-symbols",
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

    if (state.last_line != 0) {
        if (timestamp == state.last_timestamp_ms) {
            fail(ts_col, "duplicate-timestamp",
                 state.name + " has a second bar at " + describe_ms(timestamp) + " (the first is on line " +
                     std::to_string(state.last_line) + ")");
        }
        if (timestamp < state.last_timestamp_ms) {
            fail(ts_col, "unsorted-timestamps",
                 state.name + " at " + describe_ms(timestamp) + " comes after its bar at " +
                     describe_ms(state.last_timestamp_ms) + " (line " + std::to_string(state.last_line) +
                     "); bars of a symbol must be in increasing time");
        }
        const std::int64_t events =
            funding_times_between(state.last_timestamp_ms, timestamp, options_.funding_interval_ms);
        if (events > std::numeric_limits<std::int32_t>::max()) {
            fail(ts_col, "too-many-funding-times",
                 state.name + " at " + describe_ms(timestamp) + " settles " + std::to_string(events) +
                     " funding times since its bar on line " + std::to_string(state.last_line) + "; one bar holds at most " +
                     std::to_string(std::numeric_limits<std::int32_t>::max()));
        }
    }

    Bar bar{};
    bar.timestamp_ms = timestamp;
    bar.open = price(kOpen);
    bar.high = price(kHigh);
    bar.low = price(kLow);
    bar.close = price(kClose);
    bar.volume = number(column_of_[kVolume]);
    if (bar.volume < 0.0) fail(column_of_[kVolume], "negative-volume", "volume " + in_quotes(at(kVolume).text) + " is negative");
    if (!volume_in_range(bar.volume)) {
        fail(column_of_[kVolume], "volume-out-of-range",
             "volume " + in_quotes(at(kVolume).text) + " is above " + shortest(kMaxVolume) +
                 ", the largest a market may hold");
    }
    if (bar.high < bar.low) {
        fail(column_of_[kHigh], "high-below-low",
             "high " + in_quotes(at(kHigh).text) + " is below low " + in_quotes(at(kLow).text));
    }
    if (bar.high < bar.open || bar.high < bar.close) {
        fail(column_of_[kHigh], "high-below-open-close",
             "high " + in_quotes(at(kHigh).text) + " is below open " + in_quotes(at(kOpen).text) + " or close " +
                 in_quotes(at(kClose).text));
    }
    if (bar.low > bar.open || bar.low > bar.close) {
        fail(column_of_[kLow], "low-above-open-close",
             "low " + in_quotes(at(kLow).text) + " is above open " + in_quotes(at(kOpen).text) + " or close " +
                 in_quotes(at(kClose).text));
    }
    bar.funding_rate = options_.default_funding_rate;
    const bool funding_given = has_funding_column_ && !trim(at(kFundingRate).text).empty();
    if (state.selected) {
        ++bars_;
        if (funding_given) ++bars_with_funding_rate_;
    }
    if (funding_given) {
        bar.funding_rate = number(column_of_[kFundingRate]);
        if (!funding_rate_in_range(bar.funding_rate)) {
            fail(column_of_[kFundingRate], "funding-rate-out-of-range",
                 "funding_rate " + in_quotes(at(kFundingRate).text) + " is outside -" +
                     shortest(kMaxAbsFundingRate) + ".." + shortest(kMaxAbsFundingRate) +
                     " (a rate per funding time of at most 100% of the position's value)");
        }
    }

    state.last_timestamp_ms = timestamp;
    state.last_line = row_line_;
    if (state.selected) state.bars.push_back(bar);
}

void LongCsvReader::parse(const std::vector<char>& bytes) {
    csv_parser parser;
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) throw std::bad_alloc();
    const std::unique_ptr<csv_parser, void (*)(csv_parser*)> guard(&parser, csv_free);

    std::size_t pos = 0;
    if (bytes.size() >= 3 && static_cast<unsigned char>(bytes[0]) == 0xEF &&
        static_cast<unsigned char>(bytes[1]) == 0xBB && static_cast<unsigned char>(bytes[2]) == 0xBF) {
        pos = 3;
    }
    // libcsv does not count lines, so it is fed one physical line at a time
    // (a quoted field may span several; libcsv keeps its state across calls).
    while (pos < bytes.size()) {
        std::size_t end = pos;
        while (end < bytes.size() && bytes[end] != '\n' && bytes[end] != '\r') ++end;
        if (end < bytes.size()) {
            end += (bytes[end] == '\r' && end + 1 < bytes.size() && bytes[end + 1] == '\n') ? 2 : 1;
        }
        const std::size_t length = end - pos;
        const std::size_t used = csv_parse(&parser, bytes.data() + pos, length, on_field, on_row, this);
        if (failure_) std::rethrow_exception(failure_);
        if (used != length) {
            throw DataError(file_, line_, n_fields_ + 1, "bad-quoting",
                            "malformed quoting (a quote inside an unquoted field, or text after a closing quote)");
        }
        pos = end;
        ++line_;
    }
    --line_;  // the last line fed, for a final row without a line end
    if (csv_fini(&parser, on_field, on_row, this) != 0) {
        if (failure_) std::rethrow_exception(failure_);
        throw DataError(file_, last_row_end_line_ + 1, n_fields_ + 1, "unterminated-quote",
                        "a quoted field is still open at the end of the file");
    }
    if (failure_) std::rethrow_exception(failure_);

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
    if (saw_integer_) {
        facts.epoch_unit = options_.timestamp_unit ? options_.timestamp_unit : detected_unit_;
        facts.epoch_unit_detected = !options_.timestamp_unit;
    }
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

}  // namespace

Market load_market_csv(const std::filesystem::path& csv, const MarketLoadOptions& options, CsvMarketFacts* facts) {
    if (!funding_rate_in_range(options.default_funding_rate)) {
        throw std::invalid_argument("the default funding rate must be within -" + shortest(kMaxAbsFundingRate) +
                                    ".." + shortest(kMaxAbsFundingRate) + ", got " +
                                    shortest(options.default_funding_rate));
    }
    if (!funding_interval_in_range(options.funding_interval_ms)) {
        throw std::invalid_argument("the funding interval must be " + std::to_string(kMinFundingIntervalMs) + " to " +
                                    std::to_string(kMaxFundingIntervalMs) + " ms, got " +
                                    std::to_string(options.funding_interval_ms));
    }

    std::optional<InstrumentTable> instruments;
    if (options.instruments_file) instruments = load_instruments(*options.instruments_file);

    const std::vector<char> bytes = read_file(csv);
    LongCsvReader reader(csv.string(), options, instruments ? &*instruments : nullptr);
    reader.parse(bytes);
    if (facts != nullptr) *facts = reader.facts();
    try {
        return build_market(reader.take_symbols(), options.funding_interval_ms);
    } catch (const std::invalid_argument& e) {
        // The reader has checked everything else; only the size limit is left.
        throw DataError(csv.string(), 0, 0, "too-large", e.what());
    }
}

}  // namespace btforge
