#pragma once

#include <cmath>

#include "reference/accounting/holding.h"
#include "reference/accounting/quantize.h"
#include "reference/kernel_marker.h"
#include "reference/strategies/default/params.h"
#include "reference/strategies/default/position.h"

namespace btforge {

// Note [Trailing stop]
// After the exits of a bar, the best price since entry includes this bar's
// extreme. Once it is trail_activate_atr * ATR in profit, the stop follows at
// trail_atr * ATR behind it and never loosens. ATR is the entry's decision
// ATR, so the distances do not breathe with later volatility. Because it is
// updated after the exits, the moved stop acts from the next bar on. The
// symbol's tick is passed by address and read only where the stop moves: a
// load the common bar does not wait for (Note [Symbol capacity]: the order
// rules are in memory, not in the kernel's arguments).
BT_KERNEL inline void update_trailing_stop(BracketPosition& pos, const Holding& holding, const DefaultParams& p,
                                           double high, double low, const double* price_tick) {
    if (p.trail_atr <= 0.0) return;
    int side = holding.side;
    if (side > 0) {
        pos.best_price = std::fmax(pos.best_price, high);
        if (pos.best_price - holding.entry_price >= p.trail_activate_atr * pos.entry_atr) {
            double candidate = round_to_tick(pos.best_price - p.trail_atr * pos.entry_atr, *price_tick);
            pos.stop = std::fmax(pos.stop, candidate);
        }
    } else {
        pos.best_price = std::fmin(pos.best_price, low);
        if (holding.entry_price - pos.best_price >= p.trail_activate_atr * pos.entry_atr) {
            double candidate = round_to_tick(pos.best_price + p.trail_atr * pos.entry_atr, *price_tick);
            pos.stop = std::fmin(pos.stop, candidate);
        }
    }
}

}  // namespace btforge
