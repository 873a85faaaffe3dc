#pragma once

#include <cmath>

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Accounting quantum]
// Every money amount the accounting produces (fees, realized PnL, funding,
// cash) is rounded to 1e-12 before it is stored. The rounding makes the
// accumulated cash independent of how a future optimizer might reassociate
// sums, and it is exact-rounding arithmetic (multiply, round half away from
// zero, divide) that x86-64 and CUDA perform identically under SPEC §3.
BT_KERNEL inline constexpr double kAccountingQuantum = 1e12;

BT_KERNEL inline double quantize(double x) {
    return std::round(x * kAccountingQuantum) / kAccountingQuantum;
}

// Largest multiple of `step` not above `qty`. The 1e-9 step tolerance keeps
// a quantity such as 0.3 with step 0.1 (0.3/0.1 = 2.9999999999999996) at 3
// steps instead of losing one to representation error.
BT_KERNEL inline double floor_to_step(double qty, double step) {
    return quantize(std::floor(qty / step + 1e-9) * step);
}

// Nearest multiple of the instrument's price tick: stop and target trigger
// prices live on the exchange's tick grid.
BT_KERNEL inline double round_to_tick(double price, double tick) {
    return quantize(std::round(price / tick) * tick);
}

}  // namespace btforge
