#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/data/market.h"

namespace btforge {

// One bar of one symbol, before alignment.
struct Bar {
    std::int64_t timestamp_ms;
    double open, high, low, close, volume;
    double funding_rate;  // paid per funding time this bar settles
};

struct SymbolBars {
    std::string symbol;
    Instrument instrument;
    std::vector<Bar> bars;  // strictly increasing timestamps, at least one
};

inline constexpr std::int64_t kDefaultFundingIntervalMs = 8LL * 3600 * 1000;

// Number of funding times (multiples of interval_ms from the epoch) in
// (previous_ms, current_ms]; floor division, so correct before 1970 too.
std::int64_t funding_times_between(std::int64_t previous_ms, std::int64_t current_ms, std::int64_t interval_ms);

// Aligns the symbols on the union of their timestamps, producing the layout of
// Note [Aligned market layout] (market_view.h). Symbol order is kept.
// funding_events at a symbol's own bar k > 0 counts the funding times in
// (own bar k-1, own bar k]; 0 at its first bar, where no position can exist.
// Throws std::invalid_argument when the input breaks the stated
// preconditions or the result would not fit the kernels (more than
// kMaxSymbols symbols, n_symbols * n_bars beyond int indexing); callers
// that read files check those first to report a located DataError.
Market build_market(std::vector<SymbolBars> symbols, std::int64_t funding_interval_ms = kDefaultFundingIntervalMs);

}  // namespace btforge
