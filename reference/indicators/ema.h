#pragma once

// EMA(period): exponential moving average, TA-Lib TA_EMA (TA_INT_EMA, default
// compatibility, not Metastock).
// Definition: k = 2 / (period + 1); prev = (x - prev) * k + prev, one fused
// multiply-add (Note [TA-Lib's fused multiply-adds]).
// Lookback: period - 1.
// Seed: the mean of the first `period` values (summed in order from 0.0, then
// divided by period) is the value at bar period-1.
// Period 1 is a copy of the input (TA-Lib 0.8.1's explicit no-smoothing case:
// with k = 1 the step (x - prev) + prev need not give x back), and so is a
// MACD signal line of period 1.

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int ema_lookback(int period) { return period - 1; }

BT_KERNEL inline double ema_k(int period) { return 2.0 / static_cast<double>(period + 1); }

// TA_INT_EMA asked for its first output at bar `first` (>= period-1): the seed
// is the mean of in[first-period+1 .. first] and out[first, n) follow. Writes
// nothing before `first`. MACD uses this to seed its fast EMA on the bar where
// the slow one seeds.
BT_KERNEL inline void ema_from(const double* in, int n, int period, double k, int first, double* out) {
    if (first >= n) return;
    if (period == 1) {
        for (int t = first; t < n; ++t) out[t] = in[t];
        return;
    }
    double sum = 0.0;
    for (int t = first - period + 1; t <= first; ++t) sum += in[t];
    double prev = sum / period;
    out[first] = prev;
    for (int t = first + 1; t < n; ++t) {
        prev = ta_fma(in[t] - prev, k, prev);
        out[t] = prev;
    }
}

BT_KERNEL inline void ema_compute(const double* in, int n, int period, double* out) {
    const int lookback = ema_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    ema_from(in, n, period, ema_k(period), lookback, out);
}

}  // namespace btforge
