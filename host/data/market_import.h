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
//     Note [Epoch units]). The symbol is the file name's part before its
//     first '-' (BTCUSDT-1m-2024-01.csv), or --symbol.
//   - binance-funding: Binance's funding-rate history dumps
//     (calc_time, funding_interval_hours, last_funding_rate, by header).
//   - csv: any CSV with a header, its columns named by a mapping
//     (timestamp=..., open=..., high=..., low=..., close=..., volume=...,
//     and symbol=... or the file name's symbol).
// Many files in one call: rows of one symbol from several files are merged
// in time order; a timestamp given twice with the same values (overlapping
// downloads) is kept once and counted, with different values it is an error
// naming both places. Every value passes the market's own rules (Note
// [Market value limits]) at its file, line and field. Bars can be resampled
// to a longer length aligned to the epoch (1h bars start on the hour):
// first open, highest high, lowest low, last close, summed volume. The gap
// report describes the source bars of each symbol: their usual interval
// (the most common step), and the steps longer than it.

enum class ImportFormat { BinanceKlines, BinanceFunding, MappedCsv };
std::optional<ImportFormat> parse_import_format(std::string_view name);  // binance-klines, binance-funding, csv

struct ImportOptions {
    ImportFormat format = ImportFormat::BinanceKlines;
    std::string symbol;                           // "": each file's own (name or symbol column)
    std::optional<EpochUnit> timestamp_unit;      // nullopt: detected per file
    std::vector<std::pair<std::string, std::string>> columns;  // csv: btforge name -> the file's column
    std::int64_t bar_ms = 0;                      // resample to this length; 0 keeps the source bars
};

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
};

// Throws DataError at the file, line and field; std::invalid_argument for
// options that do not fit the files (a mapping without a required column,
// bars longer than the resampling length or not dividing it).
ImportedBars import_bars(std::span<const std::filesystem::path> files, const ImportOptions& options);
FundingHistory import_funding(std::span<const std::filesystem::path> files, const ImportOptions& options);

// "1m", "15m", "1h", "4h", "1d", "30s": a bar length in milliseconds.
std::optional<std::int64_t> parse_bar_length(std::string_view text);
std::string describe_bar_length(std::int64_t ms);

// The gap report of one symbol's bars (in time order).
SymbolGaps find_gaps(const std::string& symbol, std::span<const Bar> bars);
std::string describe_gaps(const SymbolGaps& gaps);

// Bars of `bar_ms` aligned to the epoch from shorter ones in time order.
std::vector<Bar> resample_bars(std::span<const Bar> bars, std::int64_t bar_ms);

}  // namespace btforge
