#pragma once

#include <filesystem>
#include <utility>

#include <cstdint>
#include <string>

#include "host/data/market.h"

namespace btforge::parity {

struct ParityMarketOptions {
    std::uint64_t seed = 1;
    int n_symbols = 3;
    int n_bars = 20000;
    int finer_per_bar = 0;  // Note [Magnified parity market]; 0: no finer bars
    bool mark = false;      // Note [Parity market with a mark price]
};

// What was injected on top of the synthetic market, for the report.
struct InjectedEvents {
    int jumps = 0;           // +-25% level shifts, half of them as opening gaps
    int spikes = 0;          // one-bar wicks of +-25%
    int flat_stretches = 0;  // open = high = low = close, no volume, for 50..400 bars
    int removed_bars = 0;    // bars deleted from a symbol (gaps in its own series)
};

struct ParityMarket {
    Market market;
    InjectedEvents injected;
    std::string description;
    Market finer;  // Note [Magnified parity market]: empty without finer bars
    Market mark;   // Note [Parity market with a mark price]: empty without one
};

// Note [Parity market]
// The seeded synthetic market (Note [Synthetic market]) already trends,
// ranges, gaps and goes flat now and then; parity needs the rare paths to be
// common, because those are the branches where a generated kernel could part
// from the reference unnoticed: stops and take-profits hit by huge moves,
// indicators over long flat stretches (zero ranges, zero volume: divisions
// by zero and NaN), symbols missing for hundreds of bars (held state,
// funding settled across the gap). Each symbol's own bars are taken out of
// the synthetic market, edited (prices stay positive, on the tick, and
// low <= open, close <= high) and aligned again with build_market, so the
// result obeys every invariant of Note [Aligned market layout]. The market
// depends only on the options.
//
// Note [Magnified parity market]
// With finer_per_bar, every bar of every symbol also gets a path of that
// many finer bars (Note [Synthetic finer bars]), one bar in 25 without one
// and one in 25 with one that disagrees. The finer market goes through
// attach_finer_bars as a file's would (Note [Checking finer bars]), so both
// fallbacks are exercised and counted. It is kept to be written beside the
// market when a run fails.
//
// Note [Parity market with a mark price]
// With mark, every bar also gets a mark price's bar (Note [Synthetic mark
// prices]), one in 25 without one, attached as a file's would be (Note
// [Checking mark prices]), so that liquidation reads the mark and both the
// mark and its fallback run; kept, like the finer bars, to be written
// beside the market when a run fails. Not with finer bars (the host never
// gives a market both).
ParityMarket make_parity_market(const ParityMarketOptions& options);

// Where a failing run writes its market (CSV and instruments) so that the
// printed replay command reproduces the divergence: beside the report when
// there is one ("<report stem>-seed<N>-market.csv"), else in a new folder of
// its own under `temp_root` (the system's temporary folder), never into the
// working directory. Returns {data file, instruments file}.
// The finer bars' file beside a failing market's CSV: "...-market-finer.csv".
std::string finer_market_file(const std::string& market_file);
// The mark price's file beside a failing market's CSV: "...-market-mark.csv".
std::string mark_market_file(const std::string& market_file);

std::pair<std::string, std::string> failing_market_files(const std::string& report, std::uint64_t seed,
                                                         const std::filesystem::path& temp_root);

}  // namespace btforge::parity
