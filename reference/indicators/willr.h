#pragma once

// WILLR(period): Williams' %R, TA-Lib TA_WILLR (0.8.1).
// Definition: ((HH - C) / (HH - LL)) * -100 over the last `period` bars
// (divide by the range, then scale), clamped into [-100, 0], and 0 when the
// range is zero within TA_IS_ZERO_SCALED(HH-LL, |HH|+|LL|).
// Lookback: period - 1.
// Seed: none; the highest high and lowest low are cached with their bars as
// in MAX and MIN (Note [Latest extreme] in max.h).

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int willr_lookback(int period) { return period - 1; }

BT_KERNEL inline void willr_compute(const double* high, const double* low, const double* close, int n, int period,
                                    double* out) {
    const int lookback = willr_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    int high_at = -1;
    int low_at = -1;
    double highest = 0.0;
    double lowest = 0.0;
    for (int t = lookback; t < n; ++t) {
        const int start = t - lookback;
        if (low_at < start) {
            low_at = start;
            lowest = low[start];
            for (int i = start + 1; i <= t; ++i) {
                if (low[i] <= lowest) {
                    lowest = low[i];
                    low_at = i;
                }
            }
        } else if (low[t] <= lowest) {
            lowest = low[t];
            low_at = t;
        }
        if (high_at < start) {
            high_at = start;
            highest = high[start];
            for (int i = start + 1; i <= t; ++i) {
                if (high[i] >= highest) {
                    highest = high[i];
                    high_at = i;
                }
            }
        } else if (high[t] >= highest) {
            highest = high[t];
            high_at = t;
        }
        const double range = highest - lowest;
        double value = 0.0;
        if (!ta_is_zero_scaled(range, std::fabs(highest) + std::fabs(lowest))) {
            value = ((highest - close[t]) / range) * (-100.0);
            if (value > 0.0) value = 0.0;
            else if (value < -100.0) value = -100.0;
        }
        out[t] = value;
    }
}

}  // namespace btforge
