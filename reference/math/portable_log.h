#pragma once

#include <cmath>
#include <limits>

#include "reference/kernel_marker.h"
#include "reference/math/portable_exp.h"
#include "reference/math/power_of_two.h"

namespace btforge {

// x = m * 2^k with m in [sqrt(2)/2, sqrt(2)), for a positive finite x:
// log x = k ln2 + log m with |log m| <= ln2 / 2.
BT_KERNEL inline double log_significand(double x, int& k) {
    double m = binary_significand(x, k);
    if (m > 1.4142135623730951) {
        m *= 0.5;
        k += 1;
    }
    return m;
}

// The natural logarithm (Note [Portable transcendentals]). With f = m - 1
// (exact) and s = f / (2 + f), log m = log(1 + s) - log(1 - s) = 2s + 2s^3/3
// + ...; fdlibm's form f - (f^2/2 - s (f^2/2 + R(s^2))), R a Remez polynomial
// of error below 2^-58, keeps the large terms exact. Measured error in
// docs/PORTABLE_MATH.md (below one ulp).
BT_KERNEL inline double portable_log(double x) {
    if (std::isnan(x)) return x;
    if (x < 0.0) return std::numeric_limits<double>::quiet_NaN();
    if (x == 0.0) return -std::numeric_limits<double>::infinity();
    if (x > 1.7976931348623157e308) return x;  // +inf
    int k = 0;
    double f = log_significand(x, k) - 1.0;
    double s = f / (2.0 + f);
    double z = s * s;
    double w = z * z;
    double even = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
    double odd = z * (6.666666666666735130e-01 +
                      w * (2.857142874366239149e-01 + w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
    double r = odd + even;
    double half_f_squared = 0.5 * f * f;
    if (k == 0) return f - (half_f_squared - s * (half_f_squared + r));
    return k * kLn2Hi - ((half_f_squared - (s * (half_f_squared + r) + k * kLn2Lo)) - f);
}

}  // namespace btforge
