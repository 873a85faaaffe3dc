#pragma once

#include "reference/accounting/holding.h"
#include "reference/kernel_marker.h"

namespace btforge {

// Unrealized PnL of a holding at `price` (0 when flat). Not quantized: it is
// never stored, only summed into the marked equity.
BT_KERNEL inline double mark_to_market_pnl(const Holding& holding, double price) {
    if (holding.side == 0) return 0.0;
    return static_cast<double>(holding.side) * (price - holding.entry_price) * holding.qty;
}

}  // namespace btforge
