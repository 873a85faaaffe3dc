#pragma once

// WMA(period): linearly weighted moving average, TA-Lib TA_WMA (0.8.1).
// Definition: sum_{i=1..period} i * x[t-period+i] / (period * (period + 1) / 2).
// Lookback: period - 1. Period 1 is a copy of the input.
// Seed: running sums of the first period-1 values (plain and weighted 1..);
// then per bar the new value enters with weight `period`, the plain sum is
// subtracted from the weighted one after the output (which lowers every weight
// by one), and the value leaving the window leaves the plain sum one bar late,
// exactly as TA-Lib keeps its trailing value.
//
// Note [WMA re-anchoring]
// The running sums never forget a rounding: each bar's error stays in them,
// at the size of the largest value they ever held, so a long series drifts
// (3e-12 relative on 2,000 daily closes). TA-Lib 0.8.1 rebuilds both sums
// from the window itself every 8*period bars (counted from the first output,
// the counter decremented before the test, so the first rebuild is on output
// bar 8*period-1), after the new value entered and before the output: the
// window oldest first, weights 1..period, the priming scan's own order. The
// drift is then bounded by 8*period bars, and every value is TA-Lib's bit for
// bit. The divider is computed in double: period*(period+1) overflows an int
// from period 46341 on.

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
    const double divider = static_cast<double>(period) * static_cast<double>(period + 1) / 2.0;
    double plain = 0.0;
    double weighted = 0.0;
    for (int t = 0; t < lookback; ++t) {
        plain += in[t];
        weighted += in[t] * static_cast<double>(t + 1);
    }
    const int reanchor_every = 8 * period;
    int bars_to_reanchor = reanchor_every;
    double trailing = 0.0;
    for (int t = lookback; t < n; ++t) {
        const double x = in[t];
        plain += x;
        plain -= trailing;
        weighted += x * static_cast<double>(period);
        --bars_to_reanchor;
        if (bars_to_reanchor <= 0) {
            bars_to_reanchor = reanchor_every;
            plain = 0.0;
            weighted = 0.0;
            for (int j = t - lookback; j <= t; ++j) {
                plain += in[j];
                weighted += in[j] * static_cast<double>(j - (t - lookback) + 1);
            }
        }
        trailing = in[t - lookback];
        out[t] = weighted / divider;
        weighted -= plain;
    }
}

}  // namespace btforge
