#pragma once

#include <cmath>

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Accounting quantum]
// Every money amount the accounting produces (fees, realized PnL, funding,
// cash, margins) passes through quantize before it is stored:
//   - |x| < 2^12 = 4096: x becomes k / 1e12, the double nearest to k * 1e-12,
//     where k is the integer nearest to x * 1e12 as computed (half away
//     from zero). x * 1e12 < 4.1e15 < 2^52 there, so the computed product
//     still resolves half a quantum and k / 1e12 is within a quantum of x.
//   - |x| >= 4096: x is kept as it is. A double there is spaced at least
//     2^-40 = 9.1e-13 from its neighbours, already the size of the quantum
//     (from 8192 on, 1.8e-12 or more: every double is then the nearest one to
//     some multiple of 1e-12). Rounding through x * 1e12 would not be exact
//     there: above 2^53 / 1e12 = 9007 the product is already an integer and the
//     division returns a neighbour of x, so a settlement of 0 moved a 10,000
//     account's cash by ulps (issue 29), and between 4096 and 9007 the
//     product's spacing of 0.5 or 1 can move a quantized amount again.
// With this split quantize is idempotent for every finite double,
// quantize(quantize(x)) == quantize(x) (reference/accounting/tests: every
// double within 2^24 ulps of the threshold and random amounts at every scale
// from 1e-12 to 1e12), so an amount stored once is never moved by a
// settlement, a fee or a transfer of 0. Both branches are exact-rounding
// arithmetic (compare, multiply, round half away from zero, divide) that
// x86-64 and CUDA perform identically under SPEC §3.
BT_KERNEL inline constexpr double kAccountingQuantum = 1e12;
BT_KERNEL inline constexpr double kAccountingQuantumLimit = 4096.0;

BT_KERNEL inline double quantize(double x) {
    if (!(std::fabs(x) < kAccountingQuantumLimit)) return x;
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
