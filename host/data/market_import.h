#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "host/data/funding_history.h"
#include "host/data/market_builder.h"
#include "host/data/timestamp_parse.h"

namespace btforge {

// Note [Market import]
// `btforge data import` turns the files users have into btforge's long CSV
// (Note [Long CSV contract]) and funding file (Note [Funding history]):
//   - binance-klines: Binance's public data dumps of USD-M futures klines
//     (data.binance.vision, one file per symbol and month or day, unzipped):
//     open_time, open, high, low, close, volume, close_time, ... by
//     position, with or without the header row (files before 2022 have
//     none), open_time in milliseconds or microseconds (detected per file,
//     Note [Epoch units]).
//   - binance-funding: Binance's funding-rate history dumps
//     (calc_time, funding_interval_hours, last_funding_rate, by header).
//   - csv: any CSV with a header, its columns named by a mapping
//     (timestamp=..., open=..., high=..., low=..., close=..., volume=...,
//     symbol=...; an unmapped column keeps its name, so btforge's own long
//     CSV imports as it is). A `symbol` column, when the file has one, gives
//     each row's symbol; otherwise the file's symbol is --symbol's or its
//     name's. A funding_rate column is not imported, and the import says so.
// The symbol of a file without a symbol column is --symbol or the file
// name's part before its suffix (symbol_of_file_name): -INTERVAL or
// -fundingRate, then dates in digits, as Binance names its dumps
// (BTCUSDT-1m-2024-01.csv, BTCUSDT-fundingRate-2024-01.csv, BTC.P-1h.csv:
// BTC.P); a name with an interval inside the symbol part is ambiguous and
// refused, as is a name without such a suffix.
// Every file holds at least one row: a zero-byte or header-only download is
// refused (empty-file), not imported as nothing.
// Many files in one call: rows of one symbol from several files are merged
// in time order; a timestamp given twice with the same values (overlapping
// downloads) is kept once and counted, with different values it is an error
// naming both places. Every value passes the market's own rules (Note
// [Market value limits]) at its file, line and field.
// Bar lengths: a file's bars of a symbol have one length, their most common
// step (missing bars do not change it). Files of one symbol with different
// lengths (1m and 1h dumps of BTCUSDT) are refused naming both files and
// lengths (mixed-intervals): they would merge into one series of mixed
// bars. Without --bar every symbol must have the same length too: the
// market aligns symbols on their timestamps, and a 1h bar stamped 01:00
// beside 1m bars stamped 01:00 would show its 01:59 close at 01:00
// (look-ahead); --bar resamples them to one length.
// Resampling (--bar, 1s to kMaxBarMs) builds bars of the --bar length
// opening at the epoch plus --bar-offset plus whole bars (1h bars start on
// the hour; --bar 1d --bar-offset 8h at 08:00; --bar 7d --bar-offset 4d on
// Mondays, the epoch being a Thursday): first open, highest high, lowest
// low, last close, summed volume. A resampled bar carries the time it
// opens, so every source bar must lie inside the one it joins: the source
// length divides --bar, and each source bar opens a whole number of source
// lengths after the offset. One that does not is refused at its file and
// line (bar-off-boundary): 1h bars opening at :30, resampled to 1h, were
// dated 30 minutes before they began, so the message names the
// --bar-offset that resamples them on their own boundaries; a bar off the
// grid of the symbol's first (a 1h bar at 03:01 among bars on the hour)
// fits no offset. A symbol of one bar, whose length cannot be told, must
// open on a --bar boundary. A resampled bar's summed volume stays within
// Note [Market value limits] (volume-out-of-range at the source bar that
// passes it), and its time within years 0000..9999, so that what an import
// writes every loader takes. Without --bar no bar moves, and none of this
// applies. The gap report describes the source bars of each symbol: their
// usual interval (the most common step), and the steps longer than it.

enum class ImportFormat { BinanceKlines, BinanceFunding, MappedCsv };
std::optional<ImportFormat> parse_import_format(std::string_view name);  // binance-klines, binance-funding, csv

struct ImportOptions {
    ImportFormat format = ImportFormat::BinanceKlines;
    std::string symbol;                           // "": each file's own (name or symbol column)
    std::optional<EpochUnit> timestamp_unit;      // nullopt: detected per file
    std::vector<std::pair<std::string, std::string>> columns;  // csv: btforge name -> the file's column
    std::int64_t bar_ms = 0;                      // resample to this length (1s..kMaxBarMs); 0 keeps the source bars
    std::int64_t bar_offset_ms = 0;               // with bar_ms: bars open this long past the epoch's boundaries
};

// The longest --bar: a week. Longer fixed lengths match no calendar period
// (a month or a year is not one length) and, aligned to the epoch, open far
// before their first source bar (--bar 9999999d would date every bar 1970).
inline constexpr std::int64_t kMaxBarMs = 7LL * 86'400'000;

struct SymbolGaps {
    std::string symbol;
    std::size_t bars = 0;
    std::int64_t first_ms = 0, last_ms = 0;
    std::int64_t interval_ms = 0;     // the most common step; 0 with one bar
    std::size_t gaps = 0;             // steps longer than the interval
    std::int64_t missing_bars = 0;    // bars of the interval those steps skip
    std::int64_t largest_gap_ms = 0;  // the longest step, and the bar it follows
    std::int64_t largest_gap_after_ms = 0;
    std::size_t duplicates_dropped = 0;  // identical rows given twice
};

struct ImportedBars {
    std::vector<SymbolBars> symbols;  // in order of first appearance, resampled when asked
    std::vector<SymbolGaps> gaps;     // of the source bars, per symbol
    std::size_t rows = 0;             // read
    std::vector<std::string> notes;   // what was read but not imported, for the user
};

// Throws DataError at the file, line and field (empty-file, mixed-intervals,
// bar-off-boundary, no-symbol, ambiguous-symbol, bad-symbol, and the rules
// of the rows, timestamp-out-of-range and volume-out-of-range of resampled
// bars among them); std::invalid_argument for options that do not fit the files
// (a mapping without a required column or naming an unknown one, --symbol
// for a file with a symbol column, bars longer than the resampling length
// or not dividing it, a bar length or offset out of range).
ImportedBars import_bars(std::span<const std::filesystem::path> files, const ImportOptions& options);
FundingHistory import_funding(std::span<const std::filesystem::path> files, const ImportOptions& options);

// "1m", "15m", "1h", "4h", "1d", "30s": a bar length in milliseconds, from
// 1s to kMaxBarMs; nullopt for anything else.
std::optional<std::int64_t> parse_bar_length(std::string_view text);

// --columns: "timestamp=open_time,open=o,..." as (btforge name, file's
// column) pairs; std::invalid_argument for an item that is not NAME=COLUMN.
std::vector<std::pair<std::string, std::string>> parse_column_mapping(std::string_view text);

// The symbol in a file's name (Note [Market import]): "BTCUSDT" of
// BTCUSDT-1m-2024-01.csv, "BTC.P" of BTC.P-1h.csv. DataError no-symbol when
// the name has no suffix to cut, ambiguous-symbol when it has an interval
// inside the symbol part, bad-symbol when the symbol breaks the market's
// rule for names.
std::string symbol_of_file_name(const std::filesystem::path& file);
std::string describe_bar_length(std::int64_t ms);

// The gap report of one symbol's bars (in time order).
SymbolGaps find_gaps(const std::string& symbol, std::span<const Bar> bars);
std::string describe_gaps(const SymbolGaps& gaps);

// Bars of `bar_ms` opening at `offset_ms` plus whole bars from the epoch,
// from shorter ones in time order (each inside its bar: import_bars checks).
std::vector<Bar> resample_bars(std::span<const Bar> bars, std::int64_t bar_ms, std::int64_t offset_ms = 0);

}  // namespace btforge
