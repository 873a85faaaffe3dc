#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Resting entry orders]
// An entry order a strategy decides at the close of bar t and leaves resting
// instead of filling at the next open: a limit (buy below, sell above the
// market: reference/orders/limit_entry_fill.h) or a stop (buy above, sell
// below: reference/orders/stop_entry_fill.h). Timing, the same for both:
//   - placed at the close of bar t with `valid_bars` N >= 1, it can fill on
//     bars t+1 .. t+N and is cancelled after the close of bar t+N unfilled
//     (N = 1: good for the next bar only);
//   - on each of those bars it is looked at after what happens at the open
//     (exits decided at the last close, the funding of positions held at the
//     open: a position the order opens did not hold that funding time) and
//     before the exits inside the bar; a strategy that places a new order
//     while one rests replaces it (same bar count from the new placement);
//   - a fill inside the bar (not at the open) happened at an unknown moment
//     of the bar, so the bar's favourable extreme may have come before it and
//     is not used, while its adverse extreme may have come after it: the
//     strategy evaluates its stop on the same bar from the fill price
//     (reference/orders/resting_entry_fill.h, Note [A fill inside the bar meets
//     its stop in that bar]), the conservative reading of an OHLC bar.
// The order says nothing about size: the strategy sizes the fill, from the
// fill price, as it sizes a market entry.
enum BT_KERNEL EntryOrderKind : int { kNoEntryOrder = 0, kLimitEntry = 1, kStopEntry = 2 };

struct BT_KERNEL RestingEntry {
    int kind;      // EntryOrderKind
    int side;      // +1 buy (to open a long), -1 sell (to open a short)
    double price;  // the limit or the stop
    int last_bar;  // the last bar it can fill on
};

BT_KERNEL inline void cancel_resting_entry(RestingEntry& order) {
    order.kind = kNoEntryOrder;
    order.side = 0;
    order.price = 0.0;
    order.last_bar = -1;
}

// Places (or replaces) the order at the close of bar `bar`.
BT_KERNEL inline void place_resting_entry(RestingEntry& order, int kind, int side, double price, int bar,
                                          int valid_bars) {
    order.kind = kind;
    order.side = side;
    order.price = price;
    order.last_bar = bar + (valid_bars < 1 ? 1 : valid_bars);
}

// Whether the order can fill on bar `bar`.
BT_KERNEL inline int resting_entry_live(const RestingEntry& order, int bar) {
    return order.kind != kNoEntryOrder && bar <= order.last_bar ? 1 : 0;
}

}  // namespace btforge
