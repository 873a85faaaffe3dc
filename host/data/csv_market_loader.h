#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "host/data/market.h"
#include "host/data/market_builder.h"
#include "host/data/timestamp_parse.h"
#include "host/io/input_file.h"

namespace btforge {

struct MarketLoadOptions {
    // When given, every loaded symbol must be listed in it (rule unknown-symbol).
    std::optional<std::filesystem::path> instruments_file;
    // Rate per funding time for bars without a funding_rate value.
    double default_funding_rate = 0.0001;
    std::int64_t funding_interval_ms = kDefaultFundingIntervalMs;
    // Unit of integer timestamps; nullopt detects it (Note [Epoch units]).
    std::optional<EpochUnit> timestamp_unit;
    // Symbols to load; empty loads all. A requested symbol absent from the
    // file is an unknown-symbol error.
    std::vector<std::string> symbols;
};

// What the loader found out about a file besides its bars.
struct CsvMarketFacts {
    // The unit its integer timestamps were read in; nullopt when it has none.
    std::optional<EpochUnit> epoch_unit;
    // True when that unit was detected rather than given.
    bool epoch_unit_detected = false;
    // Bars of the loaded symbols, and how many of them had a funding_rate
    // value (the others pay MarketLoadOptions::default_funding_rate).
    std::size_t bars = 0;
    std::size_t bars_with_funding_rate = 0;
};

// The SHA-256 (lower-case hex) of the bytes a load parsed: the market file's
// and the instruments file's ("" without one). Note [Market cache] keys a
// cache by them, so a file swapped while it is read cannot key another's
// market.
struct MarketInputDigests {
    std::string csv;
    std::string instruments;
};

// Note [Long CSV contract]
// Columns `timestamp,symbol,open,high,low,close,volume[,funding_rate]`, found
// by header name (any order, case-insensitive, surrounding spaces ignored;
// other columns ignored). Parsed with libcsv in strict mode: RFC 4180
// quoting, LF, CRLF or CR line ends, a UTF-8 BOM, blank lines. Timestamps as
// in Note [Timestamp forms] and Note [Epoch units]; numbers within
// Note [Market value limits]. Per symbol, timestamps strictly increase; rows of
// different symbols may interleave. An empty funding_rate field means the
// default rate. Symbols keep their order of first appearance in the file.
// Bars and symbols meet Note [Market rules]. The file is read in pieces
// (Note [CSV rows]), never whole: memory follows the bars of the symbols
// loaded, not the size of the file, and a pipe is read as it comes. The
// whole file is validated before the Market is built, so an error never
// leaves a partial Market, and every error is a DataError naming file, line,
// column (field number) and rule:
//   cannot-read, not-a-regular-file (a directory, a device: Note [Reading
//   input files]), row-too-long, empty-file, missing-column,
//   duplicate-column, wrong-field-count, bad-quoting, unterminated-quote,
//   bad-timestamp, ambiguous-timestamp-unit, sub-millisecond-timestamp,
//   timestamp-out-of-range, bad-symbol, not-a-number, non-positive-price,
//   price-out-of-range, negative-volume, volume-out-of-range,
//   funding-rate-out-of-range, high-below-low, high-below-open-close,
//   low-above-open-close, unsorted-timestamps, duplicate-timestamp,
//   too-many-funding-times, unknown-symbol, too-many-symbols, too-large.
// Errors of the instruments file come from load_instruments. Options outside
// Note [Market value limits] throw std::invalid_argument. `facts`, when
// given, receives what CsvMarketFacts describes.
Market load_market_csv(const std::filesystem::path& csv, const MarketLoadOptions& options = {},
                       CsvMarketFacts* facts = nullptr);

// The same from an open file (open_csv_file), read from where it stands;
// `digests`, when given, receives the SHA-256 of the bytes parsed, hashed as
// they are read.
Market load_market_csv(InputFile& csv, const MarketLoadOptions& options, CsvMarketFacts* facts,
                       MarketInputDigests* digests);

// The same for a long CSV already in memory (the Python package's
// DataFrames), `name` standing for the file in every DataError.
Market load_market_csv_text(const std::string& name, const std::vector<char>& bytes,
                            const MarketLoadOptions& options = {}, CsvMarketFacts* facts = nullptr);

}  // namespace btforge
