#pragma once

// Helpers shared by the indicator kernels: NaN filling, TA-Lib's zero tests and
// Wilder's true range / directional movement. Kept in one header so every
// kernel spells these rules identically.

#include <cmath>
#include <limits>

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Indicator output contract]
// Every <name>_compute writes every element of every output: NaN before the
// lookback (all NaN when n <= lookback) and TA-Lib's value from the lookback
// on. TA-Lib returns its outputs starting at outBegIdx == lookback; here they
// stay aligned with the bars, so out[t] belongs to bar t. All kernels follow
// TA-Lib's default compatibility mode with unstable period 0, computed from
// bar 0, and TA-Lib's order of operations, so they agree with it at round-off
// level and with the generated CUDA bit for bit.

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
// at 1e-6 as for one quoted at 1e6. Both are reproduced exactly, including
// the inclusive bound of the scaled form (multiply, then compare: no FMA).
BT_KERNEL inline bool ta_is_zero(double v) { return -1e-14 < v && v < 1e-14; }

BT_KERNEL inline bool ta_is_zero_scaled(double v, double scale) { return std::fabs(v) <= 1e-14 * scale; }

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
