#pragma once

// KAMA(period): Kaufman adaptive moving average, TA-Lib TA_KAMA (0.8.1).
// Definition: ER = |x - x[-period]| / sum of |1-bar changes| over the window,
// and 1 when that sum <= |x - x[-period]| (TA-Lib 0.8.1 clamps both
// directions: a sliding sum whose residue left it a bit below the move gives
// 1, not 1.0000000000000002, on a fall as on a rise; a zero or negative sum
// gives 1 too);
// sc = (ER * (2/3 - 2/31) + 2/31)^2; kama = (x - kama) * sc + kama, both
// multiply-adds fused (Note [TA-Lib's fused multiply-adds]).
// Lookback: period (period 1: 0, and the output is a copy of the input).
// Seed: the previous KAMA of the first output bar is x[period-1].
//
// Note [KAMA flat window]
// The sum of |changes| slides by subtract-then-add, so once a window has gone
// flat it holds rounding residue instead of 0. TA-Lib counts consecutive exact
// zero changes and, once a whole window of them has passed, resets the sum to
// exactly 0 (so ER = 1 by `0 <= |change|`). The same count is kept here.

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int kama_lookback(int period) { return period == 1 ? 0 : period; }

BT_KERNEL inline double kama_smoothing(double sum_changes, double period_change) {
    const double fastest = 2.0 / (2.0 + 1.0);
    const double slowest = 2.0 / (30.0 + 1.0);
    double er = 1.0;
    if (!(sum_changes <= std::fabs(period_change))) er = std::fabs(period_change / sum_changes);
    double sc = ta_fma(er, fastest - slowest, slowest);
    sc *= sc;
    return sc;
}

BT_KERNEL inline void kama_compute(const double* in, int n, int period, double* out) {
    const int lookback = kama_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    if (period == 1) {
        for (int t = 0; t < n; ++t) out[t] = in[t];
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    double sum_changes = 0.0;
    int flat_run = 0;
    for (int t = 0; t < period; ++t) {
        const double change = in[t] - in[t + 1];
        sum_changes += std::fabs(change);
        flat_run = (change == 0.0) ? flat_run + 1 : 0;
    }
    double kama = in[period - 1];
    kama = ta_fma(in[period] - kama, kama_smoothing(sum_changes, in[period] - in[0]), kama);
    out[period] = kama;
    for (int t = period + 1; t < n; ++t) {
        const double x = in[t];
        const double leaving = in[t - period];
        sum_changes -= std::fabs(in[t - period - 1] - leaving);
        sum_changes += std::fabs(x - in[t - 1]);
        flat_run = (x - in[t - 1] == 0.0) ? flat_run + 1 : 0;
        if (flat_run >= period) {
            flat_run = period;
            sum_changes = 0.0;
        }
        kama = ta_fma(x - kama, kama_smoothing(sum_changes, x - leaving), kama);
        out[t] = kama;
    }
}

}  // namespace btforge
