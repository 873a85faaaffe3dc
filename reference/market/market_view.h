#pragma once

#include <cstdint>

#include "reference/kernel_marker.h"
#include "reference/margin/margin_schedule.h"
#include "reference/market/symbol_capacity.h"

namespace btforge {

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
//
// Note [Markets without funding]
// A funding time settled at a rate of 0 moves an amount of 0, which changes
// no balance (docs/ACCOUNTING.md §3). A market none of whose bars settles a
// funding time at a nonzero rate (spot data, `--funding-rate 0`) is marked
// funding_free, and settle_funding does not look at its bars at all: no
// load of the funding columns, no loop, on every bar a position is held. 0,
// the value of a view built field by field, always looks. The flag is the
// whole market's, so a window of it keeps it. The device's run-time builds
// fold it into a constant (Note [Run shape]).
//
// Note [Finer bars]
// A market may carry, beside its bars, a path of finer bars through each of
// them (`--intrabar`: 1-minute bars beside hourly ones), fine_per_bar of
// them per bar, finer bar k of cell i at i * fine_per_bar + k. Only their
// open, high and low are kept: the exits inside a bar read nothing else.
// fine_path[i] is 1 where cell i's finer bars are all there and agree with
// the bar (the first open is its open, the highest high its high, the
// lowest low its low, the last close its close; the host checks it when it
// loads them), 0 elsewhere: there a bar is settled by its own four prices,
// as without finer bars, and the host counts such cells for the run header.
// A strategy walks the finer bars only on a bar whose outcome the order of
// its high and low could decide (Note [Ambiguous bars]), so every other bar
// is unchanged. fine_per_bar 0 (the value of a view built field by field):
// no finer bars, and the pointers are not read. fine_legs nonzero: the
// finer bars are not data but the bar's own three legs (Note [A bar as
// three legs], reference/market/bar_legs.h), fine_per_bar is kBarLegs, and neither
// fine_path nor the finer prices are read.
struct BT_KERNEL MarketView {
    int n_symbols;
    int n_bars;      // bars of the view
    int bar_stride;  // length of one symbol's row in the arrays (Note [Market windows])
    int funding_free;  // 1: no bar settles a funding time at a nonzero rate (Note [Markets without funding])
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
    // [n_symbols] each: the instruments' order rules (SPEC §4). Pointers, not
    // arrays, so that the view (a kernel argument) does not grow with the
    // symbol capacity (Note [Symbol capacity]).
    const double* qty_step;
    const double* min_qty;
    const double* price_tick;
    int fine_per_bar;                // finer bars per bar; 0: none (Note [Finer bars])
    int fine_legs;                   // 0: finer bars of the data; +1/-1: the bar's legs (Note [A bar as three legs])
    const std::uint8_t* fine_path;   // [n_symbols * bar_stride]: 1 where the bar's finer bars can decide it
    const double* fine_open;         // [n_symbols * bar_stride * fine_per_bar]
    const double* fine_high;
    const double* fine_low;
    // [n_symbols * bar_stride] each: the mark price's bar (Note [Mark price],
    // reference/market/mark_price.h); null: none, the last price stands in.
    const double* mark_open;
    const double* mark_high;
    const double* mark_low;
};

BT_KERNEL inline int market_index(const MarketView& market, int symbol, int bar) {
    return symbol * market.bar_stride + bar;
}

// Finer bar k of cell i (Note [Finer bars]); 64 bits, as a long market's
// cells times 60 outgrow an int.
BT_KERNEL inline std::int64_t finer_bar_index(const MarketView& market, int i, int k) {
    return static_cast<std::int64_t>(i) * market.fine_per_bar + k;
}

}  // namespace btforge
