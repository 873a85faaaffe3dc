#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "host/data/market.h"
#include "reference/market/market_view.h"

namespace btforge {

// What attach_finer_bars found, of the market's tradable bars (Note [Finer
// bars] in reference/market/market_view.h).
struct FinerBarsUse {
    int per_bar = 0;
    std::int64_t bar_ms = 0;
    std::int64_t finer_ms = 0;
    std::size_t bars = 0;          // tradable bars of the market
    std::size_t with_path = 0;     // their finer bars are all there and agree with them
    std::size_t missing = 0;       // a finer bar (or the symbol) is absent
    std::size_t disagreeing = 0;   // all there, but their open, high, low or close is not the bar's
};

// Note [Checking finer bars]
// The finer bars of a bar are those of the same symbol at its timestamp and
// every finer_ms after it, per_bar = bar_ms / finer_ms of them, where
// bar_ms and finer_ms are the shortest step between the timestamps of each
// market (a gap in the data is longer, never shorter). A finer file whose
// step does not divide the bars' evenly into at least two is refused
// (DataError, rule finer-bars-do-not-divide). A bar gets its path only
// where every one of its finer bars is there and they agree with it to the
// last bit: the first open is its open, the highest high its high, the
// lowest low its low, the last close its close (bars resampled from the
// same trades do). Anything else (a finer bar missing, a symbol the finer
// file lacks, finer bars of other prices) leaves the bar to its own four
// prices and is counted, never guessed at: a path that does not reach the
// bar's extremes would settle it on prices it never had.
// The arrays take 3 doubles per finer bar of every cell (tradable or not):
// a market whose arrays would take more than `memory_limit_bytes` (half the
// machine's physical memory unless given; a test gives its own) is refused
// (DataError, rule too-large) with the sizes, before anything is allocated.
FinerBarsUse attach_finer_bars(Market& market, const Market& finer, const std::string& finer_file,
                               double memory_limit_bytes = 0.0);

// Half the physical memory of this machine in bytes (0 where unknown): the
// default limit of attach_finer_bars.
double finer_bars_memory_limit();

// "1-hour", "15-minute", "5-second": a bar length in words.
std::string length_words(std::int64_t ms);

// "60 finer bars per bar (1-minute bars in 1-hour bars) from FILE: 70080 of
// 70080 bars have their path; 0 lack finer bars, 0 disagree with theirs",
// for the market's description (run header and result JSON).
std::string describe_finer_bars(const FinerBarsUse& use, const std::string& finer_file);

// `view` with each bar walked as its legs where a strategy walks it (Note
// [A bar as three legs]): legs +1 the favourable extreme first, -1 the
// adverse one; 0 returns the view as it is. A view with finer bars of its
// own keeps them for legs 0 and is refused otherwise (std::logic_error):
// the bounds are for a market without them.
MarketView with_bar_legs(MarketView view, int legs);

}  // namespace btforge
