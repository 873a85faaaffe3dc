#pragma once

#include <cmath>
#include <limits>

#include "reference/kernel_marker.h"
#include "reference/math/double_double.h"
#include "reference/math/power_of_two.h"

namespace btforge {

// Note [Portable transcendentals]
// std::exp, std::log, std::pow and std::tanh are not correctly rounded in
// glibc nor in CUDA's math library, and the two differ in the last bits: a
// strategy calling them would lose bit-for-bit parity (SPEC §3). The
// portable_* functions of reference/math/ are the reference's own
// implementations, marked BT_KERNEL, so the CPU and the GPU run the same
// operations: + - * / and std::sqrt, std::floor, std::fabs (correctly
// rounded everywhere, no contraction under SPEC §3), exact scaling by powers
// of two (Note [Exact powers of two]) and error-free sums and products (Note
// [Exact sums and products without FMA]). No table, no library call, no
// reading of a double's bits. Their accuracy against a correctly rounded
// result is measured, per range, by reference/math/tests/accuracy_test.py
// (mpmath as the oracle) and stated in docs/PORTABLE_MATH.md; the GPU's
// bit-identity by `btforge math-parity` (scripts/gpu-check). The algorithms
// are the classic ones (Cody and Waite's reduction by ln 2 and a Remez
// rational form for exp, as in Sun's fdlibm, whose published coefficients
// they use); the code is written here for the device subset.
//
// Special values follow C's Annex F: NaN in, NaN out; exp(+inf) = +inf,
// exp(-inf) = 0, and so on.

// ln 2 in two parts: the high part has 32 significant bits, so k * hi is
// exact for |k| < 2^21; hi + lo is ln 2 to about 2^-85.
BT_KERNEL inline constexpr double kLn2Hi = 6.93147180369123816490e-01;
BT_KERNEL inline constexpr double kLn2Lo = 1.90821492927058770002e-10;
BT_KERNEL inline constexpr double kInvLn2 = 1.44269504088896338700e+00;
// Above kExpOverflow exp overflows; below kExpUnderflow it rounds to zero.
BT_KERNEL inline constexpr double kExpOverflow = 7.09782712893383973096e+02;
BT_KERNEL inline constexpr double kExpUnderflow = -7.45133219101941108420e+02;

// exp(hi - lo) for |hi - lo| <= ln2/2 (about), where hi - lo is an argument
// known to more bits than one double holds: e^r = 1 + r + r*c/(2 - c) with
// c = r - r^2 * P(r^2), P fdlibm's Remez polynomial for (r (e^r + 1) /
// (e^r - 1) - 2) / r^2 on [0, (ln2/2)^2], error below 2^-59.
BT_KERNEL inline double exp_reduced(double hi, double lo) {
    double r = hi - lo;
    double t = r * r;
    double c = r - t * (1.66666666666666019037e-01 +
                        t * (-2.77777777770155933842e-03 +
                             t * (6.61375632143793436117e-05 +
                                  t * (-1.65339022054652515390e-06 + t * 4.13813679705723846039e-08))));
    return 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
}

// The integer nearest to x / ln 2, for |x| below 746.
BT_KERNEL inline int nearest_multiple_of_ln2(double x) {
    return static_cast<int>(std::floor(x * kInvLn2 + 0.5));
}

// e^x. Measured error in docs/PORTABLE_MATH.md (below one ulp).
BT_KERNEL inline double portable_exp(double x) {
    if (std::isnan(x)) return x;
    if (x > kExpOverflow) return std::numeric_limits<double>::infinity();
    if (x < kExpUnderflow) return 0.0;
    if (std::fabs(x) < 3.7252902984e-09) return 1.0 + x;  // |x| < 2^-28: 1 + x + x^2/2 rounds as 1 + x
    int k = nearest_multiple_of_ln2(x);
    // x - k*ln2 in two parts; the first subtraction is exact (k * kLn2Hi is,
    // and x lies within a factor two of it when k != 0).
    double hi = x - k * kLn2Hi;
    double lo = k * kLn2Lo;
    return scale_by_power_of_two(exp_reduced(hi, lo), k);
}

// e^x - 1 as hi + lo, carrying the bits the last sums would round away
// (portable_tanh divides by it). For |x| <= ln2/2 it is r + r*c/(2 - c),
// exp_reduced's identity without its 1; beyond, 2^k (1 + that) - 1 with
// the sums kept exact. Finite x in [-38, kExpOverflow] only.
BT_KERNEL inline DoubleDouble expm1_double_double(double x) {
    int k = 0;
    double hi = x;
    double lo = 0.0;
    if (std::fabs(x) > 0.34657359027997264) {  // ln2 / 2
        k = nearest_multiple_of_ln2(x);
        hi = x - k * kLn2Hi;
        lo = k * kLn2Lo;
    }
    double r = hi - lo;
    double rounding = (hi - r) - lo;  // what r = hi - lo lost, added back to first order
    double t = r * r;
    double c = r - t * (1.66666666666666019037e-01 +
                        t * (-2.77777777770155933842e-03 +
                             t * (6.61375632143793436117e-05 +
                                  t * (-1.65339022054652515390e-06 + t * 4.13813679705723846039e-08))));
    DoubleDouble y = exact_sum_ordered(r, (r * c) / (2.0 - c) + rounding);
    if (k == 0) return y;
    // 2^k (1 + y) - 1 = 2^k ((1 - 2^-k) + y); 1 - 2^-k is exact for |k| <= 53.
    double one_part = k >= -53 && k <= 53 ? 1.0 - power_of_two(-k) : 1.0;
    DoubleDouble s = exact_sum(one_part, y.hi);
    s = exact_sum_ordered(s.hi, s.lo + y.lo);
    DoubleDouble scaled{scale_by_power_of_two(s.hi, k), scale_by_power_of_two(s.lo, k)};
    if (k >= -53 && k <= 53) return scaled;
    // |k| > 53: the -1 is added last (below an ulp of 2^k (1 + y) for k > 53;
    // the whole result for k < -53).
    DoubleDouble minus_one = exact_sum(scaled.hi, -1.0);
    return exact_sum_ordered(minus_one.hi, minus_one.lo + scaled.lo);
}

// e^x - 1, accurate also where it is small (e^x - 1 computed from
// portable_exp would lose every bit there). Measured error in
// docs/PORTABLE_MATH.md.
BT_KERNEL inline double portable_expm1(double x) {
    if (std::isnan(x)) return x;
    if (x > kExpOverflow) return std::numeric_limits<double>::infinity();
    if (x < -38.0) return -1.0;  // e^x < 2^-54: -1 + e^x rounds to -1
    if (std::fabs(x) < 5.551115123125783e-17) return x;  // |x| < 2^-54
    DoubleDouble e = expm1_double_double(x);
    return e.hi + e.lo;
}

}  // namespace btforge
