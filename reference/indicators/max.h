#pragma once

// MAX(period): highest value over the last `period` bars including the current
// one, TA-Lib TA_MAX. The registry passes the high (Donchian upper channel).
// Lookback: period - 1.
// Seed: none; the extreme and its bar are cached and the window is rescanned
// only when that bar leaves it (the value is the same whatever the scan order).
//
// Note [Latest extreme]
// Among equal extremes the cache keeps the latest bar, in the rescan as in
// the update, so it leaves the window as late as possible: a flat stretch
// costs one rescan, not one per bar (O(n * period) on a halted market with a
// long period). The value is the same either way.

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int max_lookback(int period) { return period - 1; }

BT_KERNEL inline void max_compute(const double* in, int n, int period, double* out) {
    const int lookback = max_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    int best_at = -1;
    double best = 0.0;
    for (int t = lookback; t < n; ++t) {
        const int start = t - lookback;
        if (best_at < start) {
            best_at = start;
            best = in[start];
            for (int i = start + 1; i <= t; ++i) {
                if (in[i] >= best) {
                    best = in[i];
                    best_at = i;
                }
            }
        } else if (in[t] >= best) {
            best = in[t];
            best_at = t;
        }
        out[t] = best;
    }
}

}  // namespace btforge
