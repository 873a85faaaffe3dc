#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "host/data/market.h"
#include "host/data/market_builder.h"

namespace btforge {

struct MarketLoadOptions {
    // When given, every loaded symbol must be listed in it (rule unknown-symbol).
    std::optional<std::filesystem::path> instruments_file;
    // Rate per funding time for bars without a funding_rate value.
    double default_funding_rate = 0.0001;
    std::int64_t funding_interval_ms = kDefaultFundingIntervalMs;
    // Symbols to load; empty loads all. A requested symbol absent from the
    // file is an unknown-symbol error.
    std::vector<std::string> symbols;
};

// Note [Long CSV contract]
// Columns `timestamp,symbol,open,high,low,close,volume[,funding_rate]`, found
// by header name (any order, case-insensitive, surrounding spaces ignored;
// other columns ignored). Parsed with libcsv in strict mode: RFC 4180
// quoting, LF, CRLF or CR line ends, a UTF-8 BOM, blank lines. Timestamps as
// in Note [Timestamp forms]. Per symbol, timestamps strictly increase; rows of
// different symbols may interleave. An empty funding_rate field means the
// default rate. Symbols keep their order of first appearance in the file.
// The whole file is validated before the Market is built, so an error never
// leaves a partial Market, and every error is a DataError naming file, line,
// column (field number) and rule:
//   cannot-read, empty-file, missing-column, duplicate-column,
//   wrong-field-count, bad-quoting, unterminated-quote, bad-timestamp,
//   bad-symbol, not-a-number, non-positive-price, negative-volume,
//   high-below-low, high-below-open-close, low-above-open-close,
//   unsorted-timestamps, duplicate-timestamp, unknown-symbol,
//   too-many-symbols, too-large.
// Errors of the instruments file come from load_instruments.
Market load_market_csv(const std::filesystem::path& csv, const MarketLoadOptions& options = {});

}  // namespace btforge
