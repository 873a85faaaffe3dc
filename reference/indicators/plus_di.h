#pragma once

// PLUS_DI(period): Wilder's plus directional indicator, TA-Lib TA_PLUS_DI.
// Definition: DI = 100 * (DM_n / TR_n), where DM_n and TR_n are Wilder sums
// of the 1-bar plus directional movement (the part of the range above yesterday's high,
// see Note [Directional movement]) and of the true range; 0 when TR_n is
// exactly 0 (TA-Lib 0.8.1 tests it exactly: during a flat stretch both sums
// decay together and the last ratio is kept).
// Lookback: period.
// Seed: DM_n and TR_n start as plain sums over bars 1..period-1; from bar
// period on each bar does `s = s - s/period + x` (Wilder's sum form) before
// the output.
// Period 1 (TA-Lib's special case): DM/TR of the bar itself, NOT multiplied by
// 100, and 0 where the bar has no plus movement or TR is exactly 0.

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int plus_di_lookback(int period) { return period; }

BT_KERNEL inline void plus_di_compute(const double* high, const double* low, const double* close, int n, int period,
                                      double* out) {
    const int lookback = plus_di_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    if (period == 1) {
        for (int t = 1; t < n; ++t) {
            const double dm = plus_dm(high[t], high[t - 1], low[t], low[t - 1]);
            double value = 0.0;
            if (dm > 0.0) {
                const double tr = true_range(high[t], low[t], close[t - 1]);
                if (tr != 0.0) value = dm / tr;
            }
            out[t] = value;
        }
        return;
    }
    double dm_sum = 0.0;
    double tr_sum = 0.0;
    for (int t = 1; t < period; ++t) {
        dm_sum += plus_dm(high[t], high[t - 1], low[t], low[t - 1]);
        tr_sum += true_range(high[t], low[t], close[t - 1]);
    }
    for (int t = period; t < n; ++t) {
        dm_sum = dm_sum - (dm_sum / period) + plus_dm(high[t], high[t - 1], low[t], low[t - 1]);
        tr_sum = tr_sum - (tr_sum / period) + true_range(high[t], low[t], close[t - 1]);
        out[t] = tr_sum == 0.0 ? 0.0 : 100.0 * (dm_sum / tr_sum);
    }
}

}  // namespace btforge
