#include "host/validation/sharpe_statistics.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace btforge {

namespace {

constexpr double kEulerMascheroni = 0.57721566490153286060651209008240243;

// Acklam's rational approximation of Φ⁻¹, relative error below 1.15e-9.
double acklam_quantile(double p) {
    constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                            1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                            6.680131188771972e+01,  -1.328068155288572e+01};
    constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                            -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                            3.754408661907416e+00};
    constexpr double low = 0.02425;
    if (p < low) {
        const double q = std::sqrt(-2.0 * std::log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    }
    if (p > 1.0 - low) {
        const double q = std::sqrt(-2.0 * std::log1p(-p));
        return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    }
    const double q = p - 0.5;
    const double r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

}  // namespace

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

double normal_quantile(double p) {
    if (std::isnan(p) || p < 0.0 || p > 1.0) return std::numeric_limits<double>::quiet_NaN();
    if (p == 0.0) return -std::numeric_limits<double>::infinity();
    if (p == 1.0) return std::numeric_limits<double>::infinity();
    double x = acklam_quantile(p);
    // One Halley step on Φ(x) - p, with Φ from erfc (accurate in both tails).
    const double e = normal_cdf(x) - p;
    const double u = e * std::sqrt(2.0 * std::numbers::pi) * std::exp(x * x / 2.0);
    x = x - u / (1.0 + x * u / 2.0);
    return x;
}

ReturnMoments moments_of_returns(std::span<const double> r) {
    ReturnMoments m{0.0, 0.0, 3.0, static_cast<std::int64_t>(r.size())};
    if (r.empty()) return m;
    const double n = static_cast<double>(r.size());
    double mean = 0.0;
    for (double x : r) mean += x;
    mean /= n;
    double m2 = 0.0, m3 = 0.0, m4 = 0.0;
    for (double x : r) {
        const double d = x - mean;
        m2 += d * d;
        m3 += d * d * d;
        m4 += d * d * d * d;
    }
    m2 /= n;
    m3 /= n;
    m4 /= n;
    if (m2 > 0.0 && std::isfinite(m2) && std::isfinite(mean)) {
        m.sharpe = mean / std::sqrt(m2);
        m.skewness = m3 / (m2 * std::sqrt(m2));
        m.kurtosis = m4 / (m2 * m2);
    } else {
        m.undefined = std::isfinite(m2) && std::isfinite(mean) ? kNoVariance : kNotFiniteReturns;
    }
    return m;
}

namespace {

// The variance term of the PSR's denominator.
double psr_spread(const ReturnMoments& m) {
    return 1.0 - m.skewness * m.sharpe + (m.kurtosis - 1.0) / 4.0 * m.sharpe * m.sharpe;
}

}  // namespace

const char* psr_undefined(const ReturnMoments& m) {
    if (m.undefined != nullptr) return m.undefined;
    if (m.observations < 2) return "fewer than two bar returns";
    if (!(psr_spread(m) > 0.0)) {
        return "its returns are too skewed for the normal approximation (1 - skewness x SR + (kurtosis - 1) / 4 "
               "x SR^2 is not positive)";
    }
    return nullptr;
}

double probabilistic_sharpe_statistic(const ReturnMoments& m, double benchmark) {
    if (psr_undefined(m) != nullptr) return std::numeric_limits<double>::quiet_NaN();
    return (m.sharpe - benchmark) * std::sqrt(static_cast<double>(m.observations - 1)) / std::sqrt(psr_spread(m));
}

double probabilistic_sharpe_ratio(const ReturnMoments& m, double benchmark) {
    return normal_cdf(probabilistic_sharpe_statistic(m, benchmark));
}

double expected_maximum_sharpe(double trials, double variance) {
    if (!(trials > 1.0) || !(variance > 0.0)) return 0.0;
    return std::sqrt(variance) * ((1.0 - kEulerMascheroni) * normal_quantile(1.0 - 1.0 / trials) +
                                  kEulerMascheroni * normal_quantile(1.0 - 1.0 / (trials * std::numbers::e)));
}

double deflated_sharpe_ratio(const ReturnMoments& observed, double trials, double variance) {
    return probabilistic_sharpe_ratio(observed, expected_maximum_sharpe(trials, variance));
}

}  // namespace btforge
