#pragma once

#include <cmath>

// Note [Oracle tolerance]
// A reference value agrees with TA-Lib's when both are NaN, or when
// |ours - TA-Lib| <= 1e-14 * |TA-Lib| (exactly equal where TA-Lib's value is
// 0): relative to TA-Lib's own value, so an instrument quoted at 1e-12 is held
// to the same digits as one quoted at 1e12. The kernels do TA-Lib 0.8.1's
// arithmetic step for step, its fused multiply-adds included (Note [TA-Lib's
// fused multiply-adds]), and every value of both oracle tests is in fact
// bit-identical; the tolerance is the stated contract, the count of identical
// values is printed beside it.
namespace btforge::oracle {

inline constexpr double kTolerance = 1e-14;

// The relative error of `ours` against `talib` (0 when equal, infinity when
// only one is NaN or TA-Lib's is 0 and ours is not).
inline double relative_error(double ours, double talib) {
    if (std::isnan(ours) || std::isnan(talib)) return std::isnan(ours) && std::isnan(talib) ? 0.0 : INFINITY;
    if (ours == talib) return 0.0;
    return talib == 0.0 ? INFINITY : std::fabs(ours - talib) / std::fabs(talib);
}

inline bool agrees(double ours, double talib) { return relative_error(ours, talib) <= kTolerance; }

}  // namespace btforge::oracle
