// The portable transcendentals of reference/math/: tables of special values
// and exact cases (C's Annex F, worked by hand), the exact building blocks,
// and agreement with the C library within a few ulps over wide ranges. Their
// accuracy against a correctly rounded oracle is accuracy_test.py's (mpmath).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "reference/math/double_double.h"
#include "reference/math/portable_exp.h"
#include "reference/math/portable_log.h"
#include "reference/math/portable_pow.h"
#include "reference/math/portable_tanh.h"
#include "reference/math/power_of_two.h"

using namespace btforge;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kMin = std::numeric_limits<double>::min();             // 2^-1022
const double kDenormMin = std::numeric_limits<double>::denorm_min();  // 2^-1074
const double kMax = std::numeric_limits<double>::max();

// Same value, and the same sign for zeros; every NaN equals every NaN.
bool same(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
}

std::int64_t ordered_bits(double x) {
    std::int64_t i;
    std::memcpy(&i, &x, sizeof i);
    return i < 0 ? std::numeric_limits<std::int64_t>::min() - i : i;
}

// Distance in representable doubles.
std::int64_t ulps_apart(double a, double b) {
    std::int64_t d = ordered_bits(a) - ordered_bits(b);
    return d < 0 ? -d : d;
}

struct Case1 {
    double x;
    double expected;
};

struct Case2 {
    double x;
    double y;
    double expected;
};

}  // namespace

TEST_CASE("power_of_two and scale_by_power_of_two are exact over the whole exponent range") {
    for (int k = -1074; k <= 1023; ++k) {
        CAPTURE(k);
        REQUIRE(power_of_two(k) == std::ldexp(1.0, k));
    }
    const Case2 scaled[] = {
        {1.5, 1023, std::ldexp(1.5, 1023)},  {0.75, 1024, std::ldexp(0.75, 1024)},
        {1.0, 1024, kInf},                   {1.0, 3000, kInf},
        {1.5, -1074, std::ldexp(1.5, -1074)},  // rounds once, to even: 2^-1073
        {1.25, -1075, std::ldexp(1.25, -1075)}, {1.0, -1076, 0.0}, {1.0, -3000, 0.0},
        {1.9999999999999998, -1030, std::ldexp(1.9999999999999998, -1030)},
    };
    for (const Case2& c : scaled) {
        CAPTURE(c.x);
        CAPTURE(c.y);
        CHECK(same(scale_by_power_of_two(c.x, static_cast<int>(c.y)), c.expected));
    }
}

TEST_CASE("binary_significand splits normal and subnormal numbers exactly") {
    const double values[] = {1.0, 1.5, 2.0, 3.0, 0.75, 1e-300, kMin, kDenormMin, 3 * kDenormMin, kMax, 1e300,
                             0.1, 123456.789, std::nextafter(2.0, 0.0), std::nextafter(1.0, 0.0)};
    for (double x : values) {
        CAPTURE(x);
        int e = 0;
        double m = binary_significand(x, e);
        int expected_e = 0;
        double expected_m = 2.0 * std::frexp(x, &expected_e);
        CHECK(m == expected_m);
        CHECK(e == expected_e - 1);
    }
}

TEST_CASE("exact_sum and exact_product lose nothing") {
    DoubleDouble s = exact_sum(1.0, 1e-20);
    CHECK(s.hi == 1.0);
    CHECK(s.lo == 1e-20);
    // (1 + 2^-30)^2 = 1 + 2^-29 + 2^-60: the last term is the product's error.
    double a = 1.0 + std::ldexp(1.0, -30);
    DoubleDouble p = exact_product(a, a);
    CHECK(p.hi == 1.0 + std::ldexp(1.0, -29));
    CHECK(p.lo == std::ldexp(1.0, -60));
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1e6, 1e6);
    for (int i = 0; i < 10000; ++i) {
        double x = u(rng), y = u(rng);
        DoubleDouble q = exact_product(x, y);
        CHECK(q.hi == x * y);
        CHECK(q.lo == std::fma(x, y, -q.hi));  // the error of the rounded product, exactly
    }
}

TEST_CASE("portable_exp: special values and exact cases") {
    const Case1 cases[] = {
        {0.0, 1.0},   {-0.0, 1.0},  {kInf, kInf},  {-kInf, 0.0},        {kNaN, kNaN},
        {710.0, kInf}, {-746.0, 0.0}, {1e-30, 1.0}, {std::log(2.0), 2.0}, {kExpOverflow, 1.7976931348622732e308},
        {-745.0, 4.9406564584124654e-324},  // the smallest subnormal
    };
    for (const Case1& c : cases) {
        CAPTURE(c.x);
        CHECK(same(portable_exp(c.x), c.expected));
    }
}

TEST_CASE("portable_expm1: special values, tiny arguments and the limits") {
    const Case1 cases[] = {
        {0.0, 0.0}, {-0.0, -0.0}, {kInf, kInf}, {-kInf, -1.0}, {kNaN, kNaN},
        {1e-300, 1e-300}, {-1e-300, -1e-300}, {-40.0, -1.0}, {710.0, kInf},
    };
    for (const Case1& c : cases) {
        CAPTURE(c.x);
        CHECK(same(portable_expm1(c.x), c.expected));
    }
}

TEST_CASE("portable_log: special values and exact cases") {
    const Case1 cases[] = {
        {1.0, 0.0},  {0.0, -kInf}, {-0.0, -kInf}, {-1.0, kNaN}, {-kInf, kNaN}, {kInf, kInf}, {kNaN, kNaN},
        {2.0, std::log(2.0)}, {0.5, -std::log(2.0)}, {kDenormMin, -744.44007192138122},
        {kMax, 709.78271289338397},
    };
    for (const Case1& c : cases) {
        CAPTURE(c.x);
        CHECK(same(portable_log(c.x), c.expected));
    }
}

TEST_CASE("portable_pow: C's special cases (Annex F) and exact powers") {
    const Case2 cases[] = {
        // pow(x, ±0) = 1 and pow(1, y) = 1, even for NaN
        {kNaN, 0.0, 1.0}, {kNaN, -0.0, 1.0}, {1.0, kNaN, 1.0}, {1.0, kInf, 1.0}, {2.0, kNaN, kNaN},
        {kNaN, 1.0, kNaN},
        // zeros: odd integer y keeps the zero's sign
        {0.0, 3.0, 0.0}, {-0.0, 3.0, -0.0}, {-0.0, 2.0, 0.0}, {-0.0, 0.5, 0.0},
        {0.0, -3.0, kInf}, {-0.0, -3.0, -kInf}, {-0.0, -2.0, kInf}, {-0.0, -kInf, kInf},
        // infinite y
        {-1.0, kInf, 1.0}, {-1.0, -kInf, 1.0}, {0.5, kInf, 0.0}, {0.5, -kInf, kInf}, {2.0, kInf, kInf},
        {-2.0, -kInf, 0.0},
        // infinite x
        {kInf, 2.0, kInf}, {kInf, -2.0, 0.0}, {-kInf, 3.0, -kInf}, {-kInf, 2.0, kInf}, {-kInf, -3.0, -0.0},
        {-kInf, -2.0, 0.0},
        // negative x: integer y only
        {-2.0, 0.5, kNaN}, {-2.0, 3.0, -8.0}, {-2.0, 2.0, 4.0}, {-2.0, -1.0, -0.5}, {-3.0, 1e300, kInf},
        // exact results
        {2.0, 10.0, 1024.0}, {2.0, -1074.0, kDenormMin}, {2.0, 1023.0, std::ldexp(1.0, 1023)}, {10.0, 2.0, 100.0},
        {9.0, 0.5, 3.0}, {1.0000001, 1e300, kInf}, {0.9999999, 1e300, 0.0}, {2.0, 1024.0, kInf},
        {2.0, -1075.0, 0.0}, {-2.0, -1075.0, -0.0}, {1e300, 1e300, kInf}, {3.0, 3.0, 27.0}, {5.0, -2.0, 0.04},
    };
    for (const Case2& c : cases) {
        CAPTURE(c.x);
        CAPTURE(c.y);
        CHECK(same(portable_pow(c.x, c.y), c.expected));
    }
}

TEST_CASE("portable_tanh: odd, signed zero, saturation") {
    const Case1 cases[] = {
        {0.0, 0.0}, {-0.0, -0.0}, {kInf, 1.0}, {-kInf, -1.0}, {kNaN, kNaN}, {1e-300, 1e-300},
        {-1e-20, -1e-20}, {22.0, 1.0}, {-30.0, -1.0}, {1e300, 1.0},
    };
    for (const Case1& c : cases) {
        CAPTURE(c.x);
        CHECK(same(portable_tanh(c.x), c.expected));
    }
    for (double x : {0.1, 0.5, 0.99, 1.0, 3.0, 21.9}) CHECK(portable_tanh(-x) == -portable_tanh(x));
}

TEST_CASE("the portable functions stay within 2 ulps of glibc's over wide ranges") {
    // glibc's exp, log, pow, tanh are within 1 ulp of the true value, so two
    // functions each within 1 ulp differ by at most 2: a cheap independent
    // check; the correctly rounded oracle is accuracy_test.py's.
    std::mt19937_64 rng(20261124);
    std::uniform_real_distribution<double> wide(-700.0, 700.0);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_real_distribution<double> exponent(-1000.0, 1000.0);
    std::int64_t worst_exp = 0, worst_expm1 = 0, worst_log = 0, worst_pow = 0, worst_tanh = 0;
    for (int i = 0; i < 200000; ++i) {
        double x = wide(rng);
        worst_exp = std::max(worst_exp, ulps_apart(portable_exp(x), std::exp(x)));
        double small = unit(rng);
        worst_expm1 = std::max(worst_expm1, ulps_apart(portable_expm1(small), std::expm1(small)));
        double positive = std::exp2(exponent(rng));
        worst_log = std::max(worst_log, ulps_apart(portable_log(positive), std::log(positive)));
        double base = std::exp2(unit(rng) * 4.0);
        double power = unit(rng) * 100.0;
        worst_pow = std::max(worst_pow, ulps_apart(portable_pow(base, power), std::pow(base, power)));
        double t = unit(rng) * 5.0;
        worst_tanh = std::max(worst_tanh, ulps_apart(portable_tanh(t), std::tanh(t)));
    }
    CHECK(worst_exp <= 2);
    CHECK(worst_expm1 <= 2);
    CHECK(worst_log <= 2);
    CHECK(worst_pow <= 2);
    CHECK(worst_tanh <= 3);
}
