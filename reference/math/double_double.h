#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Exact sums and products without FMA]
// A double-double value is hi + lo with |lo| <= half an ulp of hi: about 106
// bits of precision from doubles alone. The portable transcendentals
// (Note [Portable transcendentals], reference/math/portable_exp.h) carry
// their intermediate results this way where one rounding would cost more
// than an ulp (the logarithm inside portable_pow). Both error-free
// transformations below use only + - *, in an order that must not be
// changed: Knuth's two-sum, and Dekker's product with Veltkamp's split
// (2^27 + 1 splits a double into two halves of 26 bits whose products are
// exact). They are exact under SPEC §3's rules (round to nearest, no
// contraction: host -ffp-contract=off, device --fmad=false; an FMA would
// compute a different, more precise, value) and when nothing overflows:
// the split needs |a| < 2^996, which every caller here guarantees.
struct BT_KERNEL DoubleDouble {
    double hi;
    double lo;
};

// a + b = hi + lo exactly, for any a and b (Knuth's two-sum).
BT_KERNEL inline DoubleDouble exact_sum(double a, double b) {
    double hi = a + b;
    double b_virtual = hi - a;
    double a_virtual = hi - b_virtual;
    double lo = (a - a_virtual) + (b - b_virtual);
    return DoubleDouble{hi, lo};
}

// a + b = hi + lo exactly when |a| >= |b| or a == 0 (Dekker's fast two-sum).
BT_KERNEL inline DoubleDouble exact_sum_ordered(double a, double b) {
    double hi = a + b;
    double lo = b - (hi - a);
    return DoubleDouble{hi, lo};
}

// a = hi + lo with each half at most 26 significant bits (Veltkamp).
BT_KERNEL inline DoubleDouble split_in_halves(double a) {
    double c = 134217729.0 * a;  // 2^27 + 1
    double hi = c - (c - a);
    return DoubleDouble{hi, a - hi};
}

// a * b = hi + lo exactly (Dekker), for |a|, |b| < 2^996 and a product that
// neither overflows nor falls below 2^-969.
BT_KERNEL inline DoubleDouble exact_product(double a, double b) {
    double p = a * b;
    DoubleDouble x = split_in_halves(a);
    DoubleDouble y = split_in_halves(b);
    double e = ((x.hi * y.hi - p) + x.hi * y.lo + x.lo * y.hi) + x.lo * y.lo;
    return DoubleDouble{p, e};
}

// (a.hi + a.lo) + (b.hi + b.lo), to about 2^-104 relative unless the sum
// cancels most of both.
BT_KERNEL inline DoubleDouble double_double_add(DoubleDouble a, DoubleDouble b) {
    DoubleDouble s = exact_sum(a.hi, b.hi);
    return exact_sum_ordered(s.hi, s.lo + (a.lo + b.lo));
}

// (a.hi + a.lo) * (b.hi + b.lo), to about 2^-102 relative.
BT_KERNEL inline DoubleDouble double_double_multiply(DoubleDouble a, DoubleDouble b) {
    DoubleDouble p = exact_product(a.hi, b.hi);
    return exact_sum_ordered(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

}  // namespace btforge
