#pragma once

// ATR(period): Wilder's average true range, TA-Lib TA_ATR.
// Definition: TR[t] = max(H-L, |H-C[-1]|, |L-C[-1]|) from bar 1 on (see
// true_range in common.h); ATR = Wilder's average of TR.
// Lookback: period (period 1: the true range itself, from bar 1).
// Seed: the mean of TR[1..period] (summed in order, divided by period) is the
// value at bar period; then Wilder's step as TA-Lib 0.8.1 writes it, with two
// weights: beta = (period-1)/period, alpha = 1 - beta (exactly 1 - beta:
// Sterbenz), atr = alpha * TR + beta * atr, the second product fused with
// the sum (Note [TA-Lib's fused multiply-adds]): ta_fma(beta, atr, alpha*TR).

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int atr_lookback(int period) { return period; }

BT_KERNEL inline void atr_compute(const double* high, const double* low, const double* close, int n, int period,
                                  double* out) {
    const int lookback = atr_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    if (period == 1) {
        for (int t = 1; t < n; ++t) out[t] = true_range(high[t], low[t], close[t - 1]);
        return;
    }
    double sum = 0.0;
    for (int t = 1; t <= period; ++t) sum += true_range(high[t], low[t], close[t - 1]);
    double atr = sum / period;
    out[period] = atr;
    const double beta = static_cast<double>(period - 1) / static_cast<double>(period);
    const double alpha = 1.0 - beta;
    for (int t = period + 1; t < n; ++t) {
        atr = ta_fma(beta, atr, alpha * true_range(high[t], low[t], close[t - 1]));
        out[t] = atr;
    }
}

}  // namespace btforge
