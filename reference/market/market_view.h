#pragma once

#include <cstdint>

#include "reference/kernel_marker.h"
#include "reference/margin/margin_schedule.h"

namespace btforge {

// Compile-time maximum number of symbols in one portfolio. Per-symbol state
// lives in fixed-size arrays of this length (no heap on the device).
BT_KERNEL inline constexpr int kMaxSymbols = 16;

// Note [Aligned market layout]
// Bars of all symbols are aligned on the union of their timestamps. Every
// per-symbol array is symbol-major: element (s, t) is at s * bar_stride + t.
// At an aligned bar where a symbol has no bar of its own, tradable is 0 and its
// open/high/low/close hold the symbol's last close (volume 0, funding_events 0),
// so marking to market and "indicators hold their state" need no special case.
// Before a symbol's first bar its prices are NaN and tradable is 0.
//
// Note [Market windows]
// A view may be a window of a longer market (`--from`/`--to`): its arrays
// then point at the window's first bar inside rows of bar_stride bars, and
// n_bars counts the window's bars, so bar t of the view is bar first + t of
// the market and a strategy loops over [0, n_bars) unchanged. The bars
// before the window stay in memory for the indicators, which are computed on
// the whole market and read through pointers that start at the same first
// bar (Note [Indicator series are shared]): at the window's first bar every
// indicator has warmed up on the bars before it, as a run started there with
// that history would see. A whole-market view has bar_stride == n_bars.
struct BT_KERNEL MarketView {
    int n_symbols;
    int n_bars;      // bars of the view
    int bar_stride;  // length of one symbol's row in the arrays (Note [Market windows])
    const std::int64_t* timestamp_ms;    // [n_bars], strictly increasing
    const double* open;                  // [n_symbols * bar_stride]
    const double* high;
    const double* low;
    const double* close;
    const double* volume;
    const double* funding_rate;          // rate paid per funding time settled at this bar
    const std::int32_t* funding_events;  // funding times settled in (previous own bar, this bar]
    const std::uint8_t* tradable;        // 1 where the symbol has a bar at this timestamp
    const MarginSchedule* margin;        // [n_symbols]: maintenance tiers and liquidation fee (Note [Maintenance margin tiers])
    double qty_step[kMaxSymbols];
    double min_qty[kMaxSymbols];
    double price_tick[kMaxSymbols];
};

BT_KERNEL inline int market_index(const MarketView& market, int symbol, int bar) {
    return symbol * market.bar_stride + bar;
}

}  // namespace btforge
