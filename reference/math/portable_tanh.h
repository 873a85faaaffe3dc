#pragma once

#include <cmath>

#include "reference/kernel_marker.h"
#include "reference/math/double_double.h"
#include "reference/math/portable_exp.h"

namespace btforge {

// t / (t + 2) for t = hi + lo > -1, rounded once from about 2^-100 (the
// quotient's remainder, from an exact product, corrects it).
BT_KERNEL inline double quotient_over_sum_with_two(DoubleDouble t) {
    DoubleDouble d = exact_sum(t.hi, 2.0);
    d = exact_sum_ordered(d.hi, d.lo + t.lo);
    double q = t.hi / d.hi;
    DoubleDouble p = exact_product(q, d.hi);
    double remainder = ((t.hi - p.hi) - p.lo) + (t.lo - q * d.lo);
    return q + remainder / d.hi;
}

// The hyperbolic tangent (Note [Portable transcendentals]), from e^(2|x|) - 1
// so that it keeps its relative accuracy near zero: with t = expm1(-2|x|),
// tanh|x| = -t / (t + 2) below 1; with t = expm1(2|x|), 1 - 2 / (t + 2) from
// 1 on; 1 from 22 on (tanh 22 = 1 - 1.5e-19, which rounds to 1). Odd:
// tanh(-x) = -tanh(x), and tanh(-0) = -0. Measured error in
// docs/PORTABLE_MATH.md.
BT_KERNEL inline double portable_tanh(double x) {
    if (std::isnan(x)) return x;
    double a = std::fabs(x);
    if (a < 2.7755575615628914e-17) return x;  // |x| < 2^-55: x^3/3 is below half an ulp
    double z = 1.0;
    if (a < 1.0) {
        z = -quotient_over_sum_with_two(expm1_double_double(-2.0 * a));
    } else if (a < 22.0) {
        DoubleDouble t = expm1_double_double(2.0 * a);
        z = 1.0 - 2.0 / ((t.hi + 2.0) + t.lo);
    }
    return x < 0.0 ? -z : z;
}

}  // namespace btforge
