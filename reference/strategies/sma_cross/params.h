#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Parameters of the SMA crossover example, one field per entry of
// spec/sma_cross.json.
struct BT_KERNEL SmaCrossParams {
    int fast_period;
    int slow_period;
    double stop_pct;           // fixed stop distance, fraction of the entry price
    double position_fraction;  // notional of one entry, fraction of equity
    int allow_short;
};

struct BT_KERNEL SmaCrossSeries {
    const double* sma_fast;
    const double* sma_slow;
};

}  // namespace btforge
