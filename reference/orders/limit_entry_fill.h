#pragma once

#include <limits>

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Limit entry fill]
// A buy limit at L fills on a bar whose range reaches L: at the open when the
// bar opens at or below L (the gap gives a better price than asked), else at
// L when the low reaches it. A sell limit mirrors it (open at or above L:
// the open; high reaches L: L). Touching the limit fills it (no queue
// position is modelled). A limit entry is a maker: maker fee, no slippage
// (the price is the one the order names, or better). Returns the fill price,
// or NaN when the bar does not reach the limit.
BT_KERNEL inline double limit_entry_fill_price(int side, double limit, double open, double high, double low) {
    if (side > 0) {
        if (open <= limit) return open;
        if (low <= limit) return limit;
    } else {
        if (open >= limit) return open;
        if (high >= limit) return limit;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace btforge
