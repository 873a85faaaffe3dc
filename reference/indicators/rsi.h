#pragma once

// RSI(period): Wilder's relative strength index, TA-Lib TA_RSI (classic, not
// Metastock).
// Definition: RSI = 100 * (g / (g + l)) with g, l Wilder's average gain and
// loss; 0 when g + l is exactly 0 (TA-Lib 0.8.1 tests the sum exactly: a
// flat stretch after a move keeps the last ratio while both averages decay).
// Lookback: period.
// Seed: g and l are the sums of the gains and losses of the first `period`
// 1-bar changes (bars 1..period), each multiplied by 1/period; after that
// `avg *= period-1; avg += change; avg *= 1/period` on both (TA-Lib 0.8.1
// multiplies by the reciprocal, computed once, where it used to divide; three
// statements, nothing fused).

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int rsi_lookback(int period) { return period; }

BT_KERNEL inline double rsi_value(double gain, double loss) {
    const double total = gain + loss;
    return total == 0.0 ? 0.0 : 100.0 * (gain / total);
}

BT_KERNEL inline void rsi_compute(const double* in, int n, int period, double* out) {
    const int lookback = rsi_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    double gain = 0.0;
    double loss = 0.0;
    for (int t = 1; t <= period; ++t) {
        const double change = in[t] - in[t - 1];
        if (change < 0.0) loss -= change;
        else gain += change;
    }
    const double inv_period = 1.0 / static_cast<double>(period);
    loss *= inv_period;
    gain *= inv_period;
    out[period] = rsi_value(gain, loss);
    const double keep = static_cast<double>(period - 1);
    for (int t = period + 1; t < n; ++t) {
        const double change = in[t] - in[t - 1];
        loss *= keep;
        gain *= keep;
        if (change < 0.0) loss -= change;
        else gain += change;
        loss *= inv_period;
        gain *= inv_period;
        out[t] = rsi_value(gain, loss);
    }
}

}  // namespace btforge
