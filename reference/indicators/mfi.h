#pragma once

// MFI(period): money flow index, TA-Lib TA_MFI (0.8.1).
// Definition: TP = (H + L + C) / 3.0; a bar's money flow TP * V is positive
// when TP rose, negative when it fell, and nothing when the change is zero
// within TA_IS_ZERO_SCALED(change, |TP| + |TP[-1]|); MFI = 100 * (pos / (pos +
// neg)) over the last `period` bars, 0 when pos + neg <= 0, with pos clamped
// into [0, pos + neg].
// Lookback: period.
// Seed: sums over bars 1..period; then each bar subtracts the flows of the bar
// leaving the window before adding its own.
//
// Note [MFI empty window]
// The sums slide by add-then-subtract, so a window that received no money
// flow holds rounding residue. TA-Lib counts consecutive bars without flow
// and, once a whole window of them has passed, resets both sums to exactly 0.
// The flows of the leaving bar are recomputed from the inputs rather than kept
// in TA-Lib's ring buffer: same expression, same value, no buffer.

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int mfi_lookback(int period) { return period; }

struct BT_KERNEL MfiFlow {
    double positive;
    double negative;
};

// Money flow of bar t >= 1.
BT_KERNEL inline MfiFlow mfi_flow(const double* high, const double* low, const double* close, const double* volume,
                                  int t) {
    const double prev_tp = (high[t - 1] + low[t - 1] + close[t - 1]) / 3.0;
    const double tp = (high[t] + low[t] + close[t]) / 3.0;
    const double change = tp - prev_tp;
    const double scale = std::fabs(tp) + std::fabs(prev_tp);
    const double flow = ta_is_zero_scaled(change, scale) ? 0.0 : tp * volume[t];
    MfiFlow result;
    result.positive = change < 0.0 ? 0.0 : flow;
    result.negative = change < 0.0 ? flow : 0.0;
    return result;
}

BT_KERNEL inline double mfi_value(double positive, double negative) {
    const double total = positive + negative;
    const double clamped = positive < 0.0 ? 0.0 : (positive > total ? total : positive);
    return total <= 0.0 ? 0.0 : 100.0 * (clamped / total);
}

BT_KERNEL inline void mfi_compute(const double* high, const double* low, const double* close, const double* volume,
                                  int n, int period, double* out) {
    const int lookback = mfi_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    double positive = 0.0;
    double negative = 0.0;
    int empty_run = 0;
    for (int t = 1; t <= period; ++t) {
        const MfiFlow flow = mfi_flow(high, low, close, volume, t);
        positive += flow.positive;
        negative += flow.negative;
        empty_run = (flow.positive + flow.negative == 0.0) ? empty_run + 1 : 0;
        if (empty_run >= period) {
            empty_run = period;
            positive = 0.0;
            negative = 0.0;
        }
    }
    out[period] = mfi_value(positive, negative);
    for (int t = period + 1; t < n; ++t) {
        const MfiFlow leaving = mfi_flow(high, low, close, volume, t - period);
        positive -= leaving.positive;
        negative -= leaving.negative;
        const MfiFlow flow = mfi_flow(high, low, close, volume, t);
        positive += flow.positive;
        negative += flow.negative;
        empty_run = (flow.positive + flow.negative == 0.0) ? empty_run + 1 : 0;
        if (empty_run >= period) {
            empty_run = period;
            positive = 0.0;
            negative = 0.0;
        }
        out[t] = mfi_value(positive, negative);
    }
}

}  // namespace btforge
