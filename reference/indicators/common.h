#pragma once

// Helpers shared by the indicator kernels: NaN filling, TA-Lib's zero tests,
// its fused multiply-add, and Wilder's true range / directional movement.
// Kept in one header so every kernel spells these rules identically.

#include <cmath>
#include <limits>

#include "reference/kernel_marker.h"
#include "reference/math/double_double.h"

namespace btforge {

// Note [Indicator output contract]
// Every <name>_compute writes every element of every output: NaN before the
// lookback (all NaN when n <= lookback) and TA-Lib's value from the lookback
// on. TA-Lib returns its outputs starting at outBegIdx == lookback; here they
// stay aligned with the bars, so out[t] belongs to bar t. All kernels follow
// TA-Lib 0.8.1's default compatibility mode with unstable period 0, computed
// from bar 0, and its order of operations, its fused multiply-adds included
// (Note [TA-Lib's fused multiply-adds]), so they agree with it bit for bit
// at every price scale the loader accepts (talib_parity_test,
// talib_market_test) and with the generated CUDA bit for bit.

BT_KERNEL inline double indicator_nan() { return std::numeric_limits<double>::quiet_NaN(); }

// Fills out[begin, end) with NaN, clipping end to n.
BT_KERNEL inline void indicator_fill_nan(double* out, int begin, int end) {
    for (int t = begin; t < end; ++t) out[t] = indicator_nan();
}

// Note [TA-Lib zero tests]
// TA-Lib does not compare against an exact 0 where rounding residue can stand
// in for zero. TA_IS_ZERO is a fixed band of 1e-14; TA_IS_ZERO_SCALED (the
// flatness test of a difference of two prices) is a band of 1e-14 times the
// magnitude of the operands, so it answers the same for an instrument quoted
// at 1e-12 as for one quoted at 1e12. Both are reproduced exactly, including
// the inclusive bound of the scaled form (multiply, then compare: no FMA).
// Which test a quantity gets depends on its unit, so that every price scale
// the loader accepts (Note [Market value limits], 1e-12 .. 1e12) gives
// TA-Lib 0.8.1's values:
//   - a fixed band only on dimensionless values: the sum of the two DIs
//     (0 .. 200, ADX);
//   - the scaled band on a difference of prices: the range of STOCH and
//     WILLR, the typical price's change (MFI), CCI's deviations;
//   - an exact test on a sum of magnitudes, which holds no cancellation
//     residue and is zero only when every term is: the Wilder sum of the
//     true range (PLUS_DI, MINUS_DI, ADX), RSI's gain + loss. A fixed band
//     there would be a constant in the quote's unit: ADX used one until
//     TA-Lib 0.8.1 (its #253) and zeroed the index wherever the smoothed true
//     range of a 1e-12 instrument fell below 1e-14.
BT_KERNEL inline bool ta_is_zero(double v) { return -1e-14 < v && v < 1e-14; }

BT_KERNEL inline bool ta_is_zero_scaled(double v, double scale) { return std::fabs(v) <= 1e-14 * scale; }

// Note [TA-Lib's fused multiply-adds]
// TA-Lib 0.8.1 is compiled with floating-point contraction: where one C
// expression multiplies and adds (the EMA step `(x - prev) * k + prev`,
// KAMA's, ATR's `wAlpha * tr + wBeta * prev`), its library computes a*b + c
// with one rounding, an FMA. The GPU contract allows no contraction (SPEC
// §3: host -ffp-contract=off, device --fmad=false) and no std::fma, so
// ta_fma computes the same correctly rounded a*b + c from + - * alone
// (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums: proved
// algorithms using rounding to odd", IEEE Trans. Computers 57(4), 2008):
// a*b = uh + ul exactly (Dekker), c + uh = th + tl exactly (Knuth), then
// th + (tl + ul) where the inner sum is rounded to odd, so the final
// rounding sees whether the exact sum lay above or below a tie and never
// rounds twice. Each call site below is one that TA-Lib fuses, found by
// comparing every value with TA-Lib's bit for bit (talib_market_test): an
// unfused step differs from TA-Lib's in the last bit, and the MACD line, a
// difference of two nearly equal EMAs, turns that bit into up to 5e-12 of
// its own value. Exact for finite operands with |a|, |b| < 2^996 and a*b
// either 0 or of magnitude >= 2^-969 (exact_product's range): the
// indicators' operands, from prices within 1e-12 .. 1e12, are far inside.
//
// The double next to x in the direction of `toward`'s sign, for a finite x
// with |x| >= 2^-969: x + |x| * (2^-53 + 2^-105) rounds to the successor
// and x - |x| * (2^-53 + 2^-105) to the predecessor (Rump, Zimmermann,
// Boldo, Melquiond, "Computing predecessor and successor in rounding to
// nearest", BIT 49, 2009).
BT_KERNEL inline double ta_neighbour_double(double x, double toward) {
    const double phi = 1.1102230246251565e-16 * (1.0 + 2.220446049250313e-16);  // 2^-53 * (1 + 2^-52)
    const double step = std::fabs(x) * phi;
    return toward > 0.0 ? x + step : x - step;
}

// a + b rounded to odd: exact when representable, otherwise whichever of the
// two doubles around it has an odd significand (never a tie).
BT_KERNEL inline double ta_sum_rounded_to_odd(double a, double b) {
    const DoubleDouble s = exact_sum(a, b);
    if (s.lo == 0.0) return s.hi;
    const double other = ta_neighbour_double(s.hi, s.lo);
    // s.hi / (distance to its neighbour) is an integer below 2^54, exactly:
    // its parity is the parity of s.hi's significand.
    const double units = s.hi / std::fabs(other - s.hi);
    const bool odd = units - 2.0 * std::floor(units * 0.5) != 0.0;
    return odd ? s.hi : other;
}

// a * b + c with a single rounding, as an FMA computes it.
BT_KERNEL inline double ta_fma(double a, double b, double c) {
    const DoubleDouble product = exact_product(a, b);
    const DoubleDouble sum = exact_sum(c, product.hi);
    return sum.hi + ta_sum_rounded_to_odd(sum.lo, product.lo);
}

// Wilder's true range of a bar given the previous close: the largest of the
// bar's range and the distances from the previous close to its high and low.
// Comparisons are strict, in TA-Lib's order, so ties keep the earlier term.
BT_KERNEL inline double true_range(double high, double low, double prev_close) {
    double range = high - low;
    double up = std::fabs(high - prev_close);
    if (up > range) range = up;
    double down = std::fabs(low - prev_close);
    if (down > range) range = down;
    return range;
}

// Note [Directional movement]
// +DM is the part of today's range above yesterday's high, -DM the part below
// yesterday's low; only the larger of the two counts, and neither counts on a
// tie or when it is not positive (Wilder's seven cases, TA-Lib's ta_ADX.c).
BT_KERNEL inline double plus_dm(double high, double prev_high, double low, double prev_low) {
    double up = high - prev_high;
    double down = prev_low - low;
    return (up > 0 && up > down) ? up : 0.0;
}

BT_KERNEL inline double minus_dm(double high, double prev_high, double low, double prev_low) {
    double up = high - prev_high;
    double down = prev_low - low;
    return (down > 0 && down > up) ? down : 0.0;
}

}  // namespace btforge
