#pragma once

// BBANDS(period, k): Bollinger bands, TA-Lib TA_BBANDS with the default MA type
// (SMA) and nbDevUp == nbDevDn == k.
// Definition: middle = SMA(period); sd = population standard deviation over the
// same window; upper = middle + sd*k, lower = middle - sd*k (sd*k is computed
// once and added/subtracted).
// Lookback: period - 1.
// Seed: running sums over the first period-1 values; the middle band is
// TA_SMA's running sum exactly.
//
// Note [BBANDS variance]
// TA-Lib 0.8.1 computes the variance from sums of deviations from a `shift`
// (initially the first value of the first window): var = S2/p - (S1/p)^2 with
// 1/p multiplied, not divided. After each bar it reseeds (shift = mean of the
// current window, both sums recomputed over it, then the leaving value removed)
// when the variance fell below 1e-6 of the mean square, when the leaving
// squared deviation exceeds 1e6 times S2, or every 32*period bars. A variance
// <= 0 gives sd = 0 (an exact test in 0.8.1: a fixed band would zero the
// bands of an instrument quoted at 1e-6). This is reproduced step for step:
// on flat stretches only this exact sequence gives TA-Lib's bands.

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int bbands_lookback(int period) { return period - 1; }

BT_KERNEL inline void bbands_compute(const double* in, int n, int period, double k, double* upper, double* middle,
                                     double* lower) {
    const int lookback = bbands_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(upper, 0, n);
        indicator_fill_nan(middle, 0, n);
        indicator_fill_nan(lower, 0, n);
        return;
    }
    indicator_fill_nan(upper, 0, lookback);
    indicator_fill_nan(middle, 0, lookback);
    indicator_fill_nan(lower, 0, lookback);

    const double inv_period = 1.0 / static_cast<double>(period);
    double shift = in[0];
    double ma_total = 0.0;
    double s1 = 0.0;
    double s2 = 0.0;
    for (int t = 0; t < lookback; ++t) {
        ma_total += in[t];
        double d = in[t] - shift;
        s1 += d;
        d *= d;
        s2 += d;
    }
    int bars_to_reseed = 32 * period;
    for (int t = lookback; t < n; ++t) {
        ma_total += in[t];
        double d = in[t] - shift;
        s1 += d;
        d *= d;
        s2 += d;
        double mean_dev = s1 * inv_period;
        double variance = s2 * inv_period - mean_dev * mean_dev;
        const double mid = ma_total / period;

        const int leaving = t - lookback;
        ma_total -= in[leaving];
        d = in[leaving] - shift;
        s1 -= d;
        d *= d;
        s2 -= d;

        --bars_to_reseed;
        if (variance < 0.000001 * (s2 * inv_period) || d > 1000000.0 * s2 || bars_to_reseed <= 0) {
            bars_to_reseed = 32 * period;
            double sum = 0.0;
            for (int j = leaving; j <= t; ++j) sum += in[j];
            shift = sum * inv_period;
            s1 = 0.0;
            s2 = 0.0;
            for (int j = leaving; j <= t; ++j) {
                double e = in[j] - shift;
                s1 += e;
                e *= e;
                s2 += e;
            }
            mean_dev = s1 * inv_period;
            variance = s2 * inv_period - mean_dev * mean_dev;
            double e = in[leaving] - shift;
            s1 -= e;
            e *= e;
            s2 -= e;
        }

        const double sd = variance > 0.0 ? std::sqrt(variance) : 0.0;
        const double width = sd * k;
        middle[t] = mid;
        upper[t] = mid + width;
        lower[t] = mid - width;
    }
}

}  // namespace btforge
