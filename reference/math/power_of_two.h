#pragma once

#include <cmath>

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Exact powers of two]
// The portable transcendentals (Note [Portable transcendentals]) split a
// number into a significand and a power of two, and scale their result back,
// with multiplications by powers of two only: such a product is exact while
// it stays a normal double, so the CPU and the GPU agree without a library's
// ldexp or frexp, and without reading a double's bits. Powers of two are
// built by squaring or by std::sqrt of a power of two with an even exponent,
// both exact.

// 2^k for -1074 <= k <= 1023, exactly (binary exponentiation of 2 or 1/2:
// every factor is a power of two, so no product rounds).
BT_KERNEL inline double power_of_two(int k) {
    double base = k >= 0 ? 2.0 : 0.5;
    int n = k >= 0 ? k : -k;
    double result = 1.0;
    while (n != 0) {
        if ((n & 1) != 0) result *= base;
        n >>= 1;
        if (n != 0) base *= base;
    }
    return result;
}

// x * 2^k with a single rounding (only when the result is subnormal), for a
// normal x and any k; overflows to infinity and underflows to zero as the
// exact product would round. Large |k| is applied in steps that keep the
// intermediate product normal, so it never rounds twice.
BT_KERNEL inline double scale_by_power_of_two(double x, int k) {
    if (k > 1023) {
        x *= power_of_two(1023);
        k -= 1023;
        if (k > 1023) {
            x *= power_of_two(1023);
            k -= 1023;
            if (k > 1023) k = 1023;
        }
    } else if (k < -1022) {
        x *= power_of_two(-969);  // 2^-1022 * 2^53: still normal for |x| >= 2^-53
        k += 969;
        if (k < -1022) {
            x *= power_of_two(-969);
            k += 969;
            if (k < -1074) k = -1074;
        }
    }
    return x * power_of_two(k);
}

// For a positive finite x: m in [1, 2) and exponent e with x = m * 2^e,
// exactly (a subnormal x is first scaled by 2^54). A greedy walk over 2^512,
// 2^256, ..., 2^1 moves x towards [1, 2); each step is an exact product.
BT_KERNEL inline double binary_significand(double x, int& exponent) {
    int e = 0;
    if (x < 2.2250738585072014e-308) {  // 2^-1022: subnormal
        x *= 18014398509481984.0;       // 2^54
        e = -54;
    }
    double step = power_of_two(512);
    double inverse = power_of_two(-512);
    for (int s = 512; s >= 1; s /= 2) {
        if (x >= step) {
            x *= inverse;
            e += s;
        } else if (x * step < 2.0) {
            x *= step;
            e -= s;
        }
        step = std::sqrt(step);  // 2^(s/2): exact, s/2 >= 1 for every s used next
        inverse = 1.0 / step;
    }
    exponent = e;
    return x;
}

}  // namespace btforge
