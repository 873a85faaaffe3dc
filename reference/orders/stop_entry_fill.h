#pragma once

#include <limits>

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Stop entry fill]
// A buy stop at S fills on a bar whose range reaches S: at the open when the
// bar opens at or above S (the gap gives a worse price than asked: the
// market is already through the stop), else at S when the high reaches it.
// A sell stop mirrors it (open at or below S: the open; low reaches S: S).
// A stop entry becomes a market order when triggered: a taker, with
// slippage against the trader applied by the caller. Returns the price
// before slippage, or NaN when the bar does not reach the stop.
BT_KERNEL inline double stop_entry_fill_price(int side, double stop, double open, double high, double low) {
    if (side > 0) {
        if (open >= stop) return open;
        if (high >= stop) return stop;
    } else {
        if (open <= stop) return open;
        if (low <= stop) return stop;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace btforge
