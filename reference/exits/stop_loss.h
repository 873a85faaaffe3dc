#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Stop-loss rule]
// A bar that opens through the stop fills at the open (the gap is the
// trader's loss, the stop price was never traded). Otherwise a bar whose range
// reaches the stop fills at the stop. Both are taker fills with slippage.
// The stop is checked before any target: with a stop and a target inside one
// bar the order of the two touches is unknown, and the stop wins.
enum BT_KERNEL StopOutcome : int { kStopNotHit = 0, kStopHit = 1, kStopGapped = 2 };

BT_KERNEL inline int evaluate_stop(int side, double stop, double open_price, double high, double low) {
    if (side > 0) {
        if (open_price <= stop) return kStopGapped;
        if (low <= stop) return kStopHit;
    } else {
        if (open_price >= stop) return kStopGapped;
        if (high >= stop) return kStopHit;
    }
    return kStopNotHit;
}

}  // namespace btforge
