#pragma once

#include <cmath>

#include "reference/accounting/quantize.h"
#include "reference/kernel_marker.h"

namespace btforge {

// Note [Trailing stop]
// After the exits of a bar, the best price since entry includes this bar's
// extreme. Once it is activate_units * unit in profit, the stop follows at
// trail_units * unit behind it, on the tick grid, and never loosens. The
// unit is the strategy's fixed distance (the default strategy: the ATR of
// the entry's decision bar, so the distances do not breathe with later
// volatility). Because it is updated after the exits, the moved stop acts
// from the next bar on. trail_units <= 0 turns it off. The symbol's tick is
// passed by address and read only where the stop moves: a load the common
// bar does not wait for (Note [Symbol capacity]: the order rules are in
// memory, not in the kernel's arguments).
BT_KERNEL inline void update_trailing_stop(int side, double entry_price, double unit, double trail_units,
                                           double activate_units, double high, double low, const double* price_tick,
                                           double& best_price, double& stop) {
    if (trail_units <= 0.0) return;
    if (side > 0) {
        best_price = std::fmax(best_price, high);
        if (best_price - entry_price >= activate_units * unit) {
            double candidate = round_to_tick(best_price - trail_units * unit, *price_tick);
            stop = std::fmax(stop, candidate);
        }
    } else {
        best_price = std::fmin(best_price, low);
        if (entry_price - best_price >= activate_units * unit) {
            double candidate = round_to_tick(best_price + trail_units * unit, *price_tick);
            stop = std::fmin(stop, candidate);
        }
    }
}

}  // namespace btforge
