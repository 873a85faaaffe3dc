#pragma once

// WMA(period): linearly weighted moving average, TA-Lib TA_WMA.
// Definition: sum_{i=1..period} i * x[t-period+i] / (period * (period + 1) / 2).
// Lookback: period - 1. Period 1 is a copy of the input.
// Seed: running sums of the first period-1 values (plain and weighted 1..);
// then per bar the new value enters with weight `period`, the plain sum is
// subtracted from the weighted one after the output (which lowers every weight
// by one), and the value leaving the window leaves the plain sum one bar late,
// exactly as TA-Lib keeps its trailing value.

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int wma_lookback(int period) { return period - 1; }

BT_KERNEL inline void wma_compute(const double* in, int n, int period, double* out) {
    const int lookback = wma_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    if (period == 1) {
        for (int t = 0; t < n; ++t) out[t] = in[t];
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    const double divider = static_cast<double>((period * (period + 1)) >> 1);
    double plain = 0.0;
    double weighted = 0.0;
    for (int t = 0; t < lookback; ++t) {
        plain += in[t];
        weighted += in[t] * static_cast<double>(t + 1);
    }
    double trailing = 0.0;
    for (int t = lookback; t < n; ++t) {
        const double x = in[t];
        plain += x;
        plain -= trailing;
        weighted += x * static_cast<double>(period);
        trailing = in[t - lookback];
        out[t] = weighted / divider;
        weighted -= plain;
    }
}

}  // namespace btforge
