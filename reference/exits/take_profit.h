#pragma once

#include <cmath>

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Target fills]
// Targets are resting limit orders (maker, no slippage). A bar that reaches
// the target fills it at the target price, or at the open when the bar opens
// beyond it: a limit order fills at the better price.
BT_KERNEL inline int target_reached(int side, double target, double high, double low) {
    return side > 0 ? (high >= target ? 1 : 0) : (low <= target ? 1 : 0);
}

BT_KERNEL inline double target_fill_price(int side, double target, double open_price) {
    return side > 0 ? std::fmax(target, open_price) : std::fmin(target, open_price);
}

}  // namespace btforge
