#pragma once

// SMA(period): simple moving average, TA-Lib TA_SMA (TA_INT_SMA).
// Definition: mean of the last `period` values including the current one.
// Lookback: period - 1.
// Seed: none; a running sum of the first period-1 values, then per bar add the
// new value, divide the sum by period, and subtract the value leaving the window
// (add before divide, subtract after: TA-Lib's order, so the sum never holds
// fewer than period-1 terms).

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int sma_lookback(int period) { return period - 1; }

BT_KERNEL inline void sma_compute(const double* in, int n, int period, double* out) {
    const int lookback = sma_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    double total = 0.0;
    for (int t = 0; t < lookback; ++t) total += in[t];
    for (int t = lookback; t < n; ++t) {
        total += in[t];
        out[t] = total / period;
        total -= in[t - lookback];
    }
}

}  // namespace btforge
