#pragma once

#include <cstdint>

#include "reference/kernel_marker.h"

namespace btforge {

// Compile-time maximum number of symbols in one portfolio. Per-symbol state
// lives in fixed-size arrays of this length (no heap on the device).
BT_KERNEL inline constexpr int kMaxSymbols = 16;

// Note [Aligned market layout]
// Bars of all symbols are aligned on the union of their timestamps. Every
// per-symbol array is symbol-major: element (s, t) is at s * n_bars + t.
// At an aligned bar where a symbol has no bar of its own, tradable is 0 and its
// open/high/low/close hold the symbol's last close (volume 0, funding_events 0),
// so marking to market and "indicators hold their state" need no special case.
// Before a symbol's first bar its prices are NaN and tradable is 0.
struct BT_KERNEL MarketView {
    int n_symbols;
    int n_bars;
    const std::int64_t* timestamp_ms;    // [n_bars], strictly increasing
    const double* open;                  // [n_symbols * n_bars]
    const double* high;
    const double* low;
    const double* close;
    const double* volume;
    const double* funding_rate;          // rate paid per funding time settled at this bar
    const std::int32_t* funding_events;  // funding times settled in (previous own bar, this bar]
    const std::uint8_t* tradable;        // 1 where the symbol has a bar at this timestamp
    double qty_step[kMaxSymbols];
    double min_qty[kMaxSymbols];
    double price_tick[kMaxSymbols];
};

BT_KERNEL inline int market_index(const MarketView& market, int symbol, int bar) {
    return symbol * market.n_bars + bar;
}

}  // namespace btforge
