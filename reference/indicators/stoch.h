#pragma once

// STOCH(fastk, slowk, slowd): slow stochastic, TA-Lib TA_STOCH with SMA
// smoothing for both lines (TA-Lib's default MA type).
// Definition: fastK = ((C - LL) / (HH - LL)) * 100 over the last `fastk` bars
// (divide by the range, then scale), clamped into [0, 100], and 0 when the
// range is zero within TA_IS_ZERO_SCALED(HH-LL, |HH|+|LL|);
// slowK = SMA(slowk) of fastK; slowD = SMA(slowd) of slowK (sma.h's order).
// Lookback: (fastk-1) + (slowk-1) + (slowd-1).
// Seed: fastK from bar fastk-1; each SMA starts at its input's first value.
// The highest high and lowest low are cached with their bars as in MAX and
// MIN (Note [Latest extreme] in max.h).
//
// Note [STOCH scratch]
// No extra buffer: fastK is built in `slowk`, its SMA written to `slowd`,
// copied back into `slowk`, and the SMA of that written to `slowd`. Both
// outputs are NaN before the total lookback, as TA-Lib returns them.

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int stoch_lookback(int fastk, int slowk, int slowd) { return (fastk - 1) + (slowk - 1) + (slowd - 1); }

BT_KERNEL inline double stoch_fast_k(double close, double highest, double lowest) {
    const double range = highest - lowest;
    if (ta_is_zero_scaled(range, std::fabs(highest) + std::fabs(lowest))) return 0.0;
    double k = ((close - lowest) / range) * 100.0;
    if (k < 0.0) k = 0.0;
    else if (k > 100.0) k = 100.0;
    return k;
}

// SMA of in[begin, n) into out[begin+period-1, n), sma.h's order of operations.
BT_KERNEL inline void stoch_sma_from(const double* in, int begin, int n, int period, double* out) {
    double total = 0.0;
    for (int t = begin; t < begin + period - 1 && t < n; ++t) total += in[t];
    for (int t = begin + period - 1; t < n; ++t) {
        total += in[t];
        out[t] = total / period;
        total -= in[t - period + 1];
    }
}

BT_KERNEL inline void stoch_compute(const double* high, const double* low, const double* close, int n, int fastk,
                                    int slowk, int slowd, double* out_slowk, double* out_slowd) {
    const int lookback = stoch_lookback(fastk, slowk, slowd);
    if (n <= lookback) {
        indicator_fill_nan(out_slowk, 0, n);
        indicator_fill_nan(out_slowd, 0, n);
        return;
    }
    const int k_first = fastk - 1;
    int high_at = -1;
    int low_at = -1;
    double highest = 0.0;
    double lowest = 0.0;
    for (int t = k_first; t < n; ++t) {
        const int start = t - k_first;
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
        out_slowk[t] = stoch_fast_k(close[t], highest, lowest);
    }
    const int slowk_first = k_first + slowk - 1;
    stoch_sma_from(out_slowk, k_first, n, slowk, out_slowd);
    for (int t = slowk_first; t < n; ++t) out_slowk[t] = out_slowd[t];
    stoch_sma_from(out_slowk, slowk_first, n, slowd, out_slowd);
    indicator_fill_nan(out_slowk, 0, lookback);
    indicator_fill_nan(out_slowd, 0, lookback);
}

}  // namespace btforge
