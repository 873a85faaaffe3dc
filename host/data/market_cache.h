#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "host/data/csv_market_loader.h"
#include "host/data/market.h"

namespace btforge {

// Note [Market cache]
// Parsing a large long CSV is the slow part of a run on real data (a year
// of 1-minute bars of many symbols is tens of millions of rows); a market
// parsed once is kept beside the CSV, in `<csv>.btfcache`, as its columns
// in binary, and later runs read that instead. The cache is keyed by
// content, not by dates: the SHA-256 of the CSV's bytes, of the instruments
// file's, and of every load option that changes the market (symbols, the
// default funding rate, the funding interval, the timestamp unit), with the
// format's version. A key that does not match (the CSV was edited, other
// options) or a file that does not hold what its header says (truncated,
// its payload's SHA-256 wrong, sizes impossible) is never used: the CSV is
// parsed again and the cache rewritten, and the run says why. The cache is
// written whole or not at all (Note [No half-written outputs]); a directory
// that cannot be written only costs the next run its parse. A market read
// from its cache is bit-identical to the one parsed (the tests compare
// every array).

struct MarketCacheUse {
    std::filesystem::path file;  // <csv>.btfcache
    bool hit = false;            // read from it
    bool written = false;        // written by this load
    std::string why_rebuilt;     // "", "none yet", "the CSV changed or other options", "corrupt: ...", ...
    std::string write_error;     // when it could not be written
    double seconds = 0.0;        // the whole load: hash and read, or parse and write
};

// load_market_csv through the cache of Note [Market cache]. Errors of the
// CSV are load_market_csv's (the cache never hides one: a CSV that does not
// parse has no cache).
Market load_market_csv_cached(const std::filesystem::path& csv, const MarketLoadOptions& options,
                              CsvMarketFacts* facts, MarketCacheUse* use);

// The pieces, for the tests.
std::string market_cache_key(const std::filesystem::path& csv, const MarketLoadOptions& options);
void write_market_cache(const std::filesystem::path& file, const std::string& key, const Market& market,
                        const CsvMarketFacts& facts);
// The market of `file` when it holds a valid cache for `key`; otherwise
// nothing, with the reason in *why_not.
std::optional<Market> read_market_cache(const std::filesystem::path& file, const std::string& key,
                                        CsvMarketFacts* facts, std::string* why_not);

// One phrase for the run header.
std::string describe_market_cache_use(const MarketCacheUse& use);

}  // namespace btforge
