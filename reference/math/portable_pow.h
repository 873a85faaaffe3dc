#pragma once

#include <cmath>
#include <limits>

#include "reference/kernel_marker.h"
#include "reference/math/double_double.h"
#include "reference/math/portable_exp.h"
#include "reference/math/portable_log.h"

namespace btforge {

// Note [pow through a double-double logarithm]
// x^y = e^(y log x), but |y log x| reaches 709 before the result overflows,
// and an error of one ulp in log x, times y, is up to 2^10 ulps of the
// result. So log x is computed as a double-double (Note [Exact sums and
// products without FMA]) to an absolute error near 2^-66, y log x as a
// double-double product, and e^(hi + lo) by exp_reduced with the low part
// folded into its reduction. Measured error in docs/PORTABLE_MATH.md.

// log x as hi + lo for a positive finite x: k ln2 + log m, log m = 2 atanh s
// = 2s + s^3 (2/3 + s^2 q(s^2)), s = (m - 1) / (m + 1) as a double-double,
// |s| <= 0.1716; q(u) = sum 2 u^j / (2j + 5) to 12 terms (the first one
// left out is below 2^-59 relative).
BT_KERNEL inline DoubleDouble log_double_double(double x) {
    int k = 0;
    double f = log_significand(x, k) - 1.0;  // exact
    DoubleDouble d = exact_sum_ordered(2.0, f);  // m + 1
    double s_hi = f / d.hi;
    DoubleDouble p = exact_product(s_hi, d.hi);
    double s_lo = (((f - p.hi) - p.lo) - s_hi * d.lo) / d.hi;
    DoubleDouble s{s_hi, s_lo};
    DoubleDouble s2 = double_double_multiply(s, s);
    double u = s2.hi;
    double q = 2.0 / 5.0 +
               u * (2.0 / 7.0 +
               u * (2.0 / 9.0 +
               u * (2.0 / 11.0 +
               u * (2.0 / 13.0 +
               u * (2.0 / 15.0 +
               u * (2.0 / 17.0 +
               u * (2.0 / 19.0 +
               u * (2.0 / 21.0 +
               u * (2.0 / 23.0 +
               u * (2.0 / 25.0 +
               u * (2.0 / 27.0)))))))))));
    // 2/3 as a double-double: 0.6666666666666666 + 3.700743415417188e-17.
    DoubleDouble coefficient = double_double_add(DoubleDouble{0.6666666666666666, 3.700743415417188e-17},
                                                 DoubleDouble{u * q, 0.0});
    DoubleDouble s3 = double_double_multiply(s2, s);
    DoubleDouble log_m = double_double_add(DoubleDouble{2.0 * s.hi, 2.0 * s.lo},
                                           double_double_multiply(s3, coefficient));
    if (k == 0) return log_m;
    return double_double_add(DoubleDouble{k * kLn2Hi, k * kLn2Lo}, log_m);
}

// Whether y (finite) is an odd integer.
BT_KERNEL inline bool is_odd_integer(double y) {
    if (std::floor(y) != y) return false;
    if (std::fabs(y) >= 9007199254740992.0) return false;  // 2^53 and above: every double is even
    return std::floor(y * 0.5) * 2.0 != y;
}

// x^y with C's special cases (Annex F): pow(x, ±0) = 1 and pow(1, y) = 1 even
// for NaN; a negative x needs an integer y (else NaN) and takes the sign of
// an odd one; ±0 and ±inf as C states.
BT_KERNEL inline double portable_pow(double x, double y) {
    const double inf = std::numeric_limits<double>::infinity();
    if (y == 0.0 || x == 1.0) return 1.0;
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
    double ax = std::fabs(x);
    if (std::fabs(y) == inf) {
        if (ax == 1.0) return 1.0;
        return (ax > 1.0) == (y > 0.0) ? inf : 0.0;
    }
    bool odd = is_odd_integer(y);
    double sign = (x < 0.0 || (x == 0.0 && 1.0 / x < 0.0)) && odd ? -1.0 : 1.0;
    if (x == 0.0 || ax == inf) {
        bool large = (x == 0.0) == (y < 0.0);  // 0^negative and inf^positive
        return sign * (large ? inf : 0.0);
    }
    if (x < 0.0 && std::floor(y) != y) return std::numeric_limits<double>::quiet_NaN();
    DoubleDouble log_x = log_double_double(ax);
    double estimate = y * log_x.hi;
    if (estimate > 709.79) return sign * inf;  // above ln of the largest double by more than the error
    if (estimate < -745.14) return sign * 0.0;
    DoubleDouble z = exact_product(y, log_x.hi);
    z = exact_sum_ordered(z.hi, z.lo + y * log_x.lo);
    if (z.hi > kExpOverflow) return sign * inf;
    if (z.hi < kExpUnderflow) return sign * 0.0;
    int k = nearest_multiple_of_ln2(z.hi);
    double hi = z.hi - k * kLn2Hi;  // exact, as in portable_exp
    double lo = k * kLn2Lo - z.lo;
    return sign * scale_by_power_of_two(exp_reduced(hi, lo), k);
}

}  // namespace btforge
