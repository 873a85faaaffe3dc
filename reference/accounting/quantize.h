#pragma once

#include <cmath>

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Accounting quantum]
// Every money amount the accounting stores (fees, realized PnL, funding,
// cash, fees and funding paid, a round trip's PnL, margins, entry notionals)
// is a whole multiple of 2^-40 (about 9.09e-13): quantize(x) is the multiple
// of 2^-40 nearest x, ties away from zero. What is exact, for every double
// the accounting can meet (|x| < 2^983):
// - quantize is exact: x * 2^40 and the product back are scalings by a power
//   of two (no rounding; the result is 0 or at least 2^-40, never subnormal)
//   and round() is exact, so x86-64 and CUDA return the same bits with or
//   without fused multiply-add.
// - quantize is idempotent, and the identity for |x| >= 4096: every double
//   there is already a multiple of 2^-40 (its ulp is at least 2^-40), so an
//   account of 10,000 or 1e12 is never moved by it, and a settlement of 0
//   leaves the cash bit for bit.
// - Sums and differences of amounts are exact while the result stays below
//   8192 in magnitude (a multiple of 2^-40 below 2^13 has at most 53
//   significant bits), so below that size the order of the bookings does not
//   change the cash; above it each booking rounds once, to the nearest double,
//   as any double sum does.
// Why a binary quantum and not 1e-12: round(x * 1e12) / 1e12 returns a
// neighbour of x once x * 1e12 is already a whole number (|x| > 2^53/1e12,
// about 9,007) and is not idempotent from 4096 on, so "every amount is
// rounded to 1e-12" was false at ordinary account sizes, and it pays a
// division on every booking. The decimal rule stays where a decimal number is
// meant: prices on a tick and quantities on a step (Note [Decimal grid
// values]). Tested at account sizes 1e2 ... 1e12 in
// reference/accounting/tests/quantize_test.cpp and by the parity runs at the
// smallest and largest equity (parity-tests/CMakeLists.txt).
BT_KERNEL inline constexpr double kAmountScale = 0x1p40;    // 1 / quantum
BT_KERNEL inline constexpr double kAmountQuantum = 0x1p-40;  // about 9.09e-13

BT_KERNEL inline double quantize(double x) {
    return std::round(x * kAmountScale) * kAmountQuantum;
}

// Note [Decimal grid values]
// Prices on an instrument's tick and quantities on its step are decimal
// numbers (a tick of 0.01, a step of 0.001) that a CSV or instruments file
// gives as the double nearest their text. to_decimal_grid(y) returns the
// double nearest M * 1e-12 for the whole number M = round(fl(y * 1e12)): a
// computed 3 * 0.1 (0.30000000000000004) becomes the double of "0.3", so a
// stop on the tick compares equal to a bar's low written at that tick. What
// is exact: the result is always the double nearest a whole number of 1e-12;
// that number is the one nearest y * 1e12 unless the product's own rounding
// carries y * 1e12 across a half (then it is a neighbour; above about 9,007,
// where every product is a whole number, the result may be a neighbouring
// double of y). It is applied once to a value computed from a tick or a step,
// never to a running sum, so it need not be idempotent (from 4096 on it is
// not always). Instrument sizes and prices are at least 1e-12 (Note
// [Instrument size range], Note [Market
// value limits]) so that this rounding never erases one.
BT_KERNEL inline constexpr double kDecimalGridScale = 1e12;

BT_KERNEL inline double to_decimal_grid(double y) {
    return std::round(y * kDecimalGridScale) / kDecimalGridScale;
}

// Largest multiple of `step` not above `qty`. The 1e-9 step tolerance keeps
// a quantity such as 0.3 with step 0.1 (0.3/0.1 = 2.9999999999999996) at 3
// steps instead of losing one to representation error.
BT_KERNEL inline double floor_to_step(double qty, double step) {
    return to_decimal_grid(std::floor(qty / step + 1e-9) * step);
}

// Nearest multiple of the instrument's price tick: stop and target trigger
// prices live on the exchange's tick grid.
BT_KERNEL inline double round_to_tick(double price, double tick) {
    return to_decimal_grid(std::round(price / tick) * tick);
}

}  // namespace btforge
