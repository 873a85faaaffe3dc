#pragma once

// ROC(period): rate of change in percent, TA-Lib TA_ROC.
// Definition: ((x / x[-period]) - 1) * 100, and 0 when x[-period] == 0.
// Lookback: period.
// Seed: none.

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int roc_lookback(int period) { return period; }

BT_KERNEL inline void roc_compute(const double* in, int n, int period, double* out) {
    const int lookback = roc_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    for (int t = lookback; t < n; ++t) {
        const double base = in[t - period];
        out[t] = base != 0.0 ? ((in[t] / base) - 1.0) * 100.0 : 0.0;
    }
}

}  // namespace btforge
