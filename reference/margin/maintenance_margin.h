#pragma once

#include "reference/kernel_marker.h"
#include "reference/margin/margin_schedule.h"

namespace btforge {

// The maintenance margin of a position of notional `notional` (>= 0), from
// the tier that holds it (Note [Maintenance margin tiers]). Tiers are looked
// up from the first: small positions, the common case, stop at once.
BT_KERNEL inline double maintenance_margin(const MarginSchedule& schedule, double notional) {
    int k = 0;
    while (k + 1 < schedule.n_tiers && notional >= schedule.notional_floor[k + 1]) k += 1;
    return notional * schedule.rate[k] - schedule.amount[k];
}

}  // namespace btforge
