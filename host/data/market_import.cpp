#include "host/data/market_import.h"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "host/data/csv_bar_fields.h"
#include "host/data/csv_fields.h"
#include "host/data/market_rules.h"
#include "host/data/csv_rows.h"
#include "host/data/data_error.h"
#include "host/data/market_limits.h"

namespace btforge {

namespace {

constexpr const char* kUnitAdvice = "give the unit with --timestamp-unit s|ms|us|ns";
constexpr const char* kSymbolAdvice = "give it with --symbol";

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

bool all_digits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Binance's interval spellings in dump names: 1s, 1m, 15m, 1h, 1d, 3d, 1w,
// 1mo (1M in some tools); and the funding dumps' fundingRate.
bool names_a_series(std::string_view token) {
    if (token == "fundingRate") return true;
    std::size_t digits = 0;
    while (digits < token.size() && token[digits] >= '0' && token[digits] <= '9') ++digits;
    const std::string_view unit = token.substr(digits);
    return digits > 0 && (unit == "s" || unit == "m" || unit == "h" || unit == "d" || unit == "w" || unit == "M" ||
                          unit == "mo");
}

std::vector<std::string_view> dash_tokens(std::string_view text) {
    std::vector<std::string_view> out;
    for (std::size_t from = 0;;) {
        const std::size_t dash = text.find('-', from);
        out.push_back(text.substr(from, dash == std::string_view::npos ? std::string_view::npos : dash - from));
        if (dash == std::string_view::npos) return out;
        from = dash + 1;
    }
}

// A file name's suffix after the symbol: INTERVAL or fundingRate or a
// number, then numbers (dates), each after a '-'.
bool is_name_suffix(std::string_view rest) {
    const std::vector<std::string_view> tokens = dash_tokens(rest);
    if (!names_a_series(tokens.front()) && !all_digits(tokens.front())) return false;
    return std::all_of(tokens.begin() + 1, tokens.end(), all_digits);
}

std::string symbol_from_name(const std::filesystem::path& file, const std::string& advice) {
    const std::string shown = file.filename().string();
    std::string name = shown;
    // The extension (.csv), unless a '-' follows the last '.' (BTC.P-1h).
    const std::size_t dot = name.rfind('.');
    if (dot != std::string::npos && dot > 0 && name.find('-', dot) == std::string::npos) name.resize(dot);
    std::string symbol;
    for (std::size_t dash = name.find('-'); dash != std::string::npos; dash = name.find('-', dash + 1)) {
        if (dash > 0 && dash + 1 < name.size() && is_name_suffix(std::string_view(name).substr(dash + 1))) {
            symbol = name.substr(0, dash);
            break;
        }
    }
    if (symbol.empty()) {
        throw DataError(file.string(), 0, 0, "no-symbol",
                        "cannot tell the symbol from the file name " + in_quotes(shown) +
                            " (expected SYMBOL-INTERVAL-DATE.csv, e.g. BTCUSDT-1m-2024-01.csv): " + advice);
    }
    // An interval or fundingRate inside the symbol part: where does the symbol end?
    const std::vector<std::string_view> tokens = dash_tokens(symbol);
    for (std::size_t t = 1; t < tokens.size(); ++t) {
        if (!names_a_series(tokens[t])) continue;
        const auto before = static_cast<std::size_t>(tokens[t].data() - symbol.data()) - 1;
        throw DataError(file.string(), 0, 0, "ambiguous-symbol",
                        "cannot tell where the symbol ends in the file name " + in_quotes(shown) + ": \"" +
                            std::string(tokens[t]) + "\" could be its interval (the symbol " + in_quotes(symbol) +
                            " or " + in_quotes(symbol.substr(0, before)) + "?): " + advice);
    }
    if (const std::optional<std::string> problem = symbol_name_break(symbol)) {
        throw DataError(file.string(), 0, 0, "bad-symbol", "the file name's " + *problem + ": " + advice);
    }
    return symbol;
}

// --symbol, or the symbol of the file's name.
std::string symbol_of_file(const std::filesystem::path& file, const std::string& given,
                           const std::string& advice = kSymbolAdvice) {
    return given.empty() ? symbol_from_name(file, advice) : given;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    const std::int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

std::int64_t floor_mod(std::int64_t a, std::int64_t b) { return a - floor_div(a, b) * b; }

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

[[noreturn]] void no_rows(const std::string& file, bool header, const char* what) {
    throw DataError(file, 0, 0, "empty-file",
                    header ? std::string("the file has a header but no ") + what
                           : std::string("the file is empty (no ") + what + "): an unfinished download?");
}

void read_binance_klines(const std::filesystem::path& file, std::size_t file_index, const ImportOptions& options,
                         BarCollector& out) {
    const std::string name = file.string();
    const std::string symbol = symbol_of_file(file, options.symbol);
    InputFile bytes = open_csv_file(file, "kline file");
    EpochUnitDetector units(options.timestamp_unit, kUnitAdvice);
    std::size_t fields_per_row = 0;
    bool first = true;
    bool header = false;
    std::size_t rows = 0;
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
            header = csv_lowercase(csv_trim(fields[0].text)) == "open_time";
            if (header) return;  // the header row of newer dumps
        }
        if (fields.size() != fields_per_row) {
            throw DataError(name, line, std::min(fields.size(), fields_per_row) + 1, "wrong-field-count",
                            "expected " + std::to_string(fields_per_row) + " fields like the first row, got " +
                                std::to_string(fields.size()));
        }
        Bar bar = csv_bar(row, BarFieldIndex{1, 2, 3, 4, 5});
        bar.timestamp_ms = units.timestamp_ms(row, 0);
        out.add(file_index, symbol, bar, line);
        ++rows;
    });
    if (rows == 0) no_rows(name, header, "klines");
}

void read_mapped_csv(const std::filesystem::path& file, std::size_t file_index, const ImportOptions& options,
                     BarCollector& out, std::vector<std::string>& notes) {
    const std::string name = file.string();
    InputFile bytes = open_csv_file(file, "data file");
    EpochUnitDetector units(options.timestamp_unit, kUnitAdvice);
    // The file's column of each btforge column: timestamp .. volume are
    // required; symbol is used when the file has it (required when mapped);
    // funding_rate is only looked for, to say that it is not imported.
    enum Column : std::size_t { kTimestamp, kOpen, kHigh, kLow, kClose, kVolume, kSymbol, kFundingRate, kColumnCount };
    constexpr std::array<std::string_view, kColumnCount> kNames{"timestamp", "open",   "high",  "low",
                                                                "close",     "volume", "symbol", "funding_rate"};
    std::array<std::string, kColumnCount> wanted;
    bool symbol_mapped = false;
    for (const auto& [ours, theirs] : options.columns) {
        const auto it = std::find(kNames.begin(), kNames.begin() + kFundingRate, ours);
        if (it == kNames.begin() + kFundingRate) {
            throw std::invalid_argument("--columns names '" + ours + "', which is not one of timestamp, open, high, "
                                        "low, close, volume, symbol");
        }
        const auto c = static_cast<std::size_t>(it - kNames.begin());
        wanted[c] = csv_lowercase(theirs);
        symbol_mapped = symbol_mapped || c == kSymbol;
    }
    std::vector<CsvColumn> columns;
    for (std::size_t c = 0; c < kColumnCount; ++c) {
        if (wanted[c].empty()) wanted[c] = std::string(kNames[c]);  // unmapped: the same name
        columns.push_back(CsvColumn{wanted[c], c < kSymbol || (c == kSymbol && symbol_mapped)});
    }
    std::string expected;
    for (std::size_t c = 0; c < kSymbol; ++c) expected += (c ? ", " : "") + wanted[c];
    expected += symbol_mapped ? ", " + wanted[kSymbol] + " (--columns maps them)"
                              : " and optionally " + wanted[kSymbol] + " (--columns maps them)";
    std::vector<std::size_t> at;
    std::size_t header_fields = 0;
    std::string file_symbol;
    std::size_t rows = 0;
    read_csv_rows(name, bytes, [&](std::span<const CsvField> fields, std::size_t line) {
        const CsvRow row{name, fields, line};
        if (at.empty()) {
            header_fields = fields.size();
            at = map_csv_header(row, columns, expected);
            if (at[kSymbol] != kCsvAbsent && !options.symbol.empty()) {
                throw std::invalid_argument(
                    "--symbol " + options.symbol + ": " + name + " has a symbol column (" + in_quotes(wanted[kSymbol]) +
                    ", field " + std::to_string(at[kSymbol] + 1) + ") naming each row's symbol; leave out --symbol, "
                    "or take the symbols from another column with --columns symbol=COLUMN");
            }
            if (at[kSymbol] == kCsvAbsent) {
                file_symbol = symbol_of_file(file, options.symbol,
                                             "the file has no \"" + wanted[kSymbol] +
                                                 "\" column (--columns symbol=COLUMN names its symbol column): give "
                                                 "the symbol with --symbol");
            }
            const auto mapped = at.begin() + kFundingRate;
            if (at[kFundingRate] != kCsvAbsent && std::find(at.begin(), mapped, at[kFundingRate]) == mapped) {
                notes.push_back(name + ": its funding_rate column is not imported; a run charges the funding of "
                                "--funding-file or --funding-rate");
            }
            return;
        }
        if (fields.size() != header_fields) {
            throw DataError(name, line, std::min(fields.size(), header_fields) + 1, "wrong-field-count",
                            "expected " + std::to_string(header_fields) + " fields like the header, got " +
                                std::to_string(fields.size()));
        }
        Bar bar = csv_bar(row, BarFieldIndex{at[kOpen], at[kHigh], at[kLow], at[kClose], at[kVolume]});
        bar.timestamp_ms = units.timestamp_ms(row, at[kTimestamp]);
        if (at[kSymbol] == kCsvAbsent) {
            out.add(file_index, file_symbol, bar, line);
        } else {
            const std::string& symbol = fields[at[kSymbol]].text;
            if (const std::optional<std::string> problem = symbol_name_break(symbol)) {
                row.fail(at[kSymbol], "bad-symbol", *problem);
            }
            out.add(file_index, symbol, bar, line);
        }
        ++rows;
    });
    if (rows == 0) no_rows(name, !at.empty(), "rows");
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
    if (count == 0 || count * scale > kMaxBarMs) return std::nullopt;
    return count * scale;
}

std::vector<std::pair<std::string, std::string>> parse_column_mapping(std::string_view text) {
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t from = 0; from <= text.size();) {
        const std::size_t comma = std::min(text.find(',', from), text.size());
        const std::string_view item = text.substr(from, comma - from);
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size()) {
            throw std::invalid_argument("--columns expects NAME=COLUMN pairs separated by commas "
                                        "(timestamp=open_time,...), got " + in_quotes(item));
        }
        out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
        from = comma + 1;
    }
    return out;
}

std::string symbol_of_file_name(const std::filesystem::path& file) { return symbol_from_name(file, kSymbolAdvice); }

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

std::vector<Bar> resample_bars(std::span<const Bar> bars, std::int64_t bar_ms, std::int64_t offset_ms) {
    std::vector<Bar> out;
    for (const Bar& b : bars) {
        const std::int64_t start = b.timestamp_ms - floor_mod(b.timestamp_ms - offset_ms, bar_ms);
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

namespace {

// The most common of `steps` (the smallest of those as common), or 0.
std::int64_t most_common_step(const std::map<std::int64_t, std::size_t>& steps) {
    std::int64_t step = 0;
    std::size_t most = 0;
    for (const auto& [length, count] : steps) {
        if (count > most) {
            most = count;
            step = length;
        }
    }
    return step;
}

// Note [Market import]: the length of a symbol's bars in each of its files
// (the most common step between the file's bars of the symbol, which
// missing bars do not change), the same in every file; the symbol's, or 0
// when no file holds two of its bars and the merged bars do not either.
struct BarLength {
    std::int64_t ms = 0;
    Origin where{0, 0};  // the first bar of a file that shows it
};

BarLength bar_length(const SymbolRows& rows, std::span<const std::size_t> order, std::int64_t merged,
                     std::span<const std::filesystem::path> files) {
    struct FileSteps {
        bool any = false;
        std::int64_t last = 0;
        std::size_t first_line = 0;
        std::map<std::int64_t, std::size_t> steps;
    };
    std::unordered_map<std::size_t, FileSteps> per_file;
    for (const std::size_t k : order) {
        FileSteps& f = per_file[rows.origins[k].file];
        const std::int64_t t = rows.bars[k].timestamp_ms;
        if (f.any) {
            ++f.steps[t - f.last];
        } else {
            f.first_line = rows.origins[k].line;
        }
        f.any = true;
        f.last = t;
    }
    BarLength found;
    for (std::size_t file = 0; file < files.size(); ++file) {
        const auto it = per_file.find(file);
        if (it == per_file.end() || it->second.steps.empty()) continue;
        const BarLength here{most_common_step(it->second.steps), Origin{file, it->second.first_line}};
        if (found.ms == 0) {
            found = here;
            continue;
        }
        if (here.ms == found.ms) continue;
        throw DataError(files[file].string(), here.where.line, 1, "mixed-intervals",
                        rows.symbol + "'s bars here are " + describe_bar_length(here.ms) + " apart, in " +
                            files[found.where.file].string() + " (line " + std::to_string(found.where.line) + ") " +
                            describe_bar_length(found.ms) + ": the files of a symbol must hold bars of one length "
                            "(import the others separately)");
    }
    if (found.ms == 0 && merged != 0) found = BarLength{merged, rows.origins[order.front()]};
    return found;
}

// Note [Market import]: every source bar inside the bar it joins, and that
// bar within the years a market holds.
void check_resampling(const SymbolRows& rows, std::span<const std::size_t> kept, std::int64_t length,
                      std::span<const std::filesystem::path> files, const ImportOptions& options) {
    const std::int64_t bar = options.bar_ms;
    const std::int64_t offset = options.bar_offset_ms;
    if (length > bar || (length > 0 && bar % length != 0)) {
        throw std::invalid_argument("--bar " + describe_bar_length(bar) + " cannot be made of " + rows.symbol + "'s " +
                                    describe_bar_length(length) + " bars (it must be a multiple of them)");
    }
    const std::int64_t grid = length > 0 ? length : bar;
    const std::int64_t first = rows.bars[kept.front()].timestamp_ms;
    std::int64_t bucket = 0;
    double volume = 0.0;
    for (const std::size_t k : kept) {
        const std::int64_t t = rows.bars[k].timestamp_ms;
        const Origin at = rows.origins[k];
        const std::int64_t off = floor_mod(t - offset, grid);
        if (off != 0 && floor_mod(t - first, grid) != 0) {
            const Origin first_at = rows.origins[kept.front()];
            throw DataError(files[at.file].string(), at.line, 1, "bar-off-boundary",
                            rows.symbol + "'s " + describe_bar_length(length) + " bar at " + describe_ms(t) + " opens " +
                                describe_bar_length(floor_mod(t - first, grid)) + " off the boundaries of its first, " +
                                describe_ms(first) + " (" + files[first_at.file].string() + " line " +
                                std::to_string(first_at.line) + "): resampled to --bar " + describe_bar_length(bar) +
                                ", bars off one grid would end after the bar they join closes");
        }
        if (off != 0) {
            const std::string offset_text =
                offset == 0 ? std::string() : " --bar-offset " + describe_bar_length(offset) + " and";
            const std::int64_t own = floor_mod(t, grid);  // the offset that fits
            const std::string fits =
                own == 0 ? std::string("leave out --bar-offset") : "give --bar-offset " + describe_bar_length(own);
            const std::string boundaries = "the boundaries of" + offset_text + " --bar " + describe_bar_length(bar);
            throw DataError(
                files[at.file].string(), at.line, 1, "bar-off-boundary",
                length > 0
                    ? rows.symbol + "'s " + describe_bar_length(length) + " bars open " + describe_bar_length(off) +
                          " past " + boundaries + " (this one at " + describe_ms(t) + "): resampled, some would end "
                          "after the bar they join closes, which would show their close early; " + fits +
                          " to resample on their own boundaries"
                    : rows.symbol + "'s only bar, at " + describe_ms(t) + ", opens " + describe_bar_length(off) +
                          " past " + boundaries + ", and one bar does not tell its length: it may end after the bar "
                          "it joins closes; " + fits + " to resample on its boundaries");
        }
        const std::int64_t start = t - floor_mod(t - offset, bar);
        if (start < kMinTimestampMs) {
            throw DataError(files[at.file].string(), at.line, 1, "timestamp-out-of-range",
                            rows.symbol + "'s bar at " + describe_ms(t) + " resampled to --bar " +
                                describe_bar_length(bar) + " would open before the year 0000");
        }
        // The summed volume within Note [Market value limits], as each bar's is.
        volume = start == bucket ? volume + rows.bars[k].volume : rows.bars[k].volume;
        bucket = start;
        if (!volume_in_range(volume)) {
            throw DataError(files[at.file].string(), at.line, 0, "volume-out-of-range",
                            rows.symbol + "'s volume resampled into its " + describe_bar_length(bar) + " bar at " +
                                describe_ms(start) + " sums to " + shortest_text(volume) + ", above " +
                                shortest_text(kMaxVolume) + ", the largest a market may hold");
        }
    }
}

}  // namespace

ImportedBars import_bars(std::span<const std::filesystem::path> files, const ImportOptions& options) {
    if (files.empty()) throw std::invalid_argument("no files to import");
    if (options.bar_ms != 0 && !(options.bar_ms >= 1'000 && options.bar_ms <= kMaxBarMs)) {
        throw std::invalid_argument("--bar must be 1s to " + describe_bar_length(kMaxBarMs));
    }
    if (options.bar_offset_ms != 0 && !(options.bar_offset_ms > 0 && options.bar_offset_ms < options.bar_ms)) {
        throw std::invalid_argument("--bar-offset must be shorter than --bar (and needs it)");
    }
    if (!options.symbol.empty()) {
        if (const std::optional<std::string> problem = symbol_name_break(options.symbol)) {
            throw std::invalid_argument("--symbol: " + *problem);
        }
    }
    ImportedBars out;
    BarCollector collector;
    for (std::size_t f = 0; f < files.size(); ++f) {
        if (options.format == ImportFormat::BinanceKlines) {
            read_binance_klines(files[f], f, options, collector);
        } else {
            read_mapped_csv(files[f], f, options, collector, out.notes);
        }
    }
    out.rows = collector.count();
    // Note [Market import]: without --bar, every symbol's bars have one length.
    BarLength market_length;
    std::string market_length_symbol;
    for (SymbolRows& rows : collector.rows()) {
        std::vector<std::size_t> order(rows.bars.size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return rows.bars[a].timestamp_ms < rows.bars[b].timestamp_ms;
        });
        std::vector<Bar> bars;
        std::vector<std::size_t> kept;
        std::size_t dropped = 0;
        for (const std::size_t k : order) {
            if (!kept.empty() && rows.bars[kept.back()].timestamp_ms == rows.bars[k].timestamp_ms) {
                if (same_values(rows.bars[kept.back()], rows.bars[k])) {
                    ++dropped;
                    continue;
                }
                const Origin here = rows.origins[k];
                const Origin there = rows.origins[kept.back()];
                throw DataError(files[here.file].string(), here.line, 1, "duplicate-timestamp",
                                rows.symbol + " has another bar at " + describe_ms(rows.bars[k].timestamp_ms) +
                                    " with other values: " + files[there.file].string() + " line " +
                                    std::to_string(there.line));
            }
            kept.push_back(k);
            bars.push_back(rows.bars[k]);
        }
        SymbolGaps gaps = find_gaps(rows.symbol, bars);
        const BarLength length = bar_length(rows, kept, gaps.interval_ms, files);
        gaps.duplicates_dropped = dropped;
        if (options.bar_ms != 0) {
            check_resampling(rows, kept, length.ms, files, options);
            bars = resample_bars(bars, options.bar_ms, options.bar_offset_ms);
        } else if (length.ms != 0) {
            if (market_length.ms == 0) {
                market_length = length;
                market_length_symbol = rows.symbol;
            } else if (length.ms != market_length.ms) {
                throw DataError(files[length.where.file].string(), length.where.line, 1, "mixed-intervals",
                                rows.symbol + "'s bars are " + describe_bar_length(length.ms) + " apart, " +
                                    market_length_symbol + "'s " + describe_bar_length(market_length.ms) + " (" +
                                    files[market_length.where.file].string() + " line " +
                                    std::to_string(market_length.where.line) +
                                    "): a market aligns its symbols on their timestamps, where a longer bar would "
                                    "show its close before it ends beside the shorter ones; resample them to one "
                                    "length with --bar");
            }
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
    if (files.empty()) throw std::invalid_argument("no files to import");
    if (!options.symbol.empty()) {
        if (const std::optional<std::string> problem = symbol_name_break(options.symbol)) {
            throw std::invalid_argument("--symbol: " + *problem);
        }
    }
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
        std::size_t rows = 0;
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
            ++rows;
        });
        if (rows == 0) no_rows(name, !at.empty(), "funding rates");
    }
    for (std::size_t s = 0; s < history.symbols.size(); ++s) {
        auto& list = history.settlements[s];
        std::vector<std::size_t> order(list.size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return list[a].time_ms < list[b].time_ms; });
        std::vector<FundingSettlement> merged;
        std::size_t previous = 0;
        for (const std::size_t k : order) {
            const auto there = [&] {
                return files[file_of[s][previous]].string() + " line " + std::to_string(list[previous].line);
            };
            if (!merged.empty() && merged.back().time_ms == list[k].time_ms) {
                if (merged.back().rate == list[k].rate) continue;
                throw DataError(files[file_of[s][k]].string(), list[k].line, 1, "duplicate-timestamp",
                                history.symbols[s] + " has another rate at " + describe_ms(list[k].time_ms) + ": " +
                                    there());
            }
            // Note [Funding history]: what the import writes, a funding file takes.
            if (!merged.empty() && settlements_too_close(merged.back(), list[k])) {
                throw DataError(files[file_of[s][k]].string(), list[k].line, 1, "settlements-too-close",
                                settlements_too_close_message(history.symbols[s], list[k], merged.back(), there()));
            }
            merged.push_back(list[k]);
            previous = k;
        }
        list = std::move(merged);
    }
    return history;
}

}  // namespace btforge
