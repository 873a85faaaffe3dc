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
// parsed once is kept beside the CSV, in `<csv>.btfcache`, and later runs
// read that instead. It holds each symbol's bars and instrument in binary,
// as the parse left them, and a read builds the aligned market from them
// with the parse's own build_market.
//
// The cache is keyed by content, not by dates: the SHA-256 of the bytes the
// parse read from the CSV and from the instruments file (hashed while they
// were parsed, from the same open files: a file swapped for another and
// back while it is read keys only what was parsed), and of every load
// option that changes the market (symbols, the default funding rate, the
// funding interval, the timestamp unit, the default margin schedule), with
// the format's version. A later run hashes the files it is given and reads
// the cache only under the same key; a CSV that is a stream (a pipe) is
// read once and not cached, as nothing keys it before it is read.
//
// The cache is opened through InputFile (Note [Reading input files]): only
// a regular file is read (a FIFO in its place would hang open() where Ctrl-C
// cannot reach it) and it is never written over something that is not one.
// A file that does not hold what its header says (truncated, its payload's
// SHA-256 wrong, sizes impossible) is never used, nor one whose checksum is
// right but whose content breaks a rule a parsed CSV must keep: every bar,
// time, symbol and instrument it holds is checked by the rules of Note
// [Market rules], the same functions the CSV reader calls, so no NaN close,
// no close above its high and no qty_step of 0 reaches an engine from a
// cache. Then the CSV is parsed again and the cache rewritten, and the run
// says why. The cache is written whole or not at all (Note [No half-written
// outputs]); a directory that cannot be written only costs the next run its
// parse. A market read from its cache is bit-identical to the one parsed
// (the tests compare every array).

struct MarketCacheUse {
    std::filesystem::path file;  // <csv>.btfcache
    bool hit = false;            // read from it
    bool written = false;        // written by this load
    std::string why_rebuilt;     // "", "none yet", "the CSV or the options changed", "corrupt: ...", ...
    std::string write_error;     // when it could not be written
    double seconds = 0.0;        // the whole load: hash and read, or parse and write
};

// load_market_csv through the cache of Note [Market cache]. Errors of the
// CSV are load_market_csv's (the cache never hides one: a CSV that does not
// parse has no cache).
Market load_market_csv_cached(const std::filesystem::path& csv, const MarketLoadOptions& options,
                              CsvMarketFacts* facts, MarketCacheUse* use);

// The pieces, for the tests and the fuzz target.
// The key of a load of files whose bytes hash to `digests`.
std::string market_cache_key(const MarketInputDigests& digests, const MarketLoadOptions& options);
// The key of the files as they are now (a DataError when one cannot be read).
std::string market_cache_key(const std::filesystem::path& csv, const MarketLoadOptions& options);
// Writes the bars of `market` (each symbol's own bars) and its instruments.
void write_market_cache(const std::filesystem::path& file, const std::string& key, const Market& market,
                        const CsvMarketFacts& facts);
// The market of `file` when it holds a valid cache for `key`, built with
// `options`' funding interval; otherwise nothing, with the reason in
// *why_not.
std::optional<Market> read_market_cache(const std::filesystem::path& file, const std::string& key,
                                        const MarketLoadOptions& options, CsvMarketFacts* facts,
                                        std::string* why_not);

// One phrase for the run header.
std::string describe_market_cache_use(const MarketCacheUse& use);

}  // namespace btforge
