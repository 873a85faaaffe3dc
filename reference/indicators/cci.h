#pragma once

// CCI(period): commodity channel index, TA-Lib TA_CCI (0.8.1).
// Definition: TP = (H + L + C) / 3; avg = mean of TP over the window;
// md = mean of |TP - avg|; CCI = (TP - avg) / (0.015 * md), and 0 when either
// TP - avg or md is zero within TA_IS_ZERO_SCALED(., |avg|).
// Lookback: period - 1.
// Seed: none; every bar sums the whole window.
//
// Note [CCI summation order]
// TA-Lib keeps the window in a circular buffer and sums it by slot, not by
// age: bar b sits in slot b % period, and both sums run over slots 0..p-1.
// Floating-point addition is not associative, so the same order is used here
// (each slot's TP is recomputed from the inputs; the expression is the same,
// so the value is too).

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int cci_lookback(int period) { return period - 1; }

BT_KERNEL inline double cci_typical(const double* high, const double* low, const double* close, int t) {
    return (high[t] + low[t] + close[t]) / 3;
}

// The bar of window [start, start+period) that sits in circular slot `slot`.
BT_KERNEL inline int cci_slot_bar(int start, int period, int slot) {
    return start + ((slot - start % period) + period) % period;
}

BT_KERNEL inline void cci_compute(const double* high, const double* low, const double* close, int n, int period,
                                  double* out) {
    const int lookback = cci_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    for (int t = lookback; t < n; ++t) {
        const int start = t - lookback;
        double average = 0;
        for (int j = 0; j < period; ++j) average += cci_typical(high, low, close, cci_slot_bar(start, period, j));
        average /= period;
        double mean_dev = 0;
        for (int j = 0; j < period; ++j) {
            mean_dev += std::fabs(cci_typical(high, low, close, cci_slot_bar(start, period, j)) - average);
        }
        mean_dev /= period;
        const double deviation = cci_typical(high, low, close, t) - average;
        const double scale = std::fabs(average);
        if (!ta_is_zero_scaled(deviation, scale) && !ta_is_zero_scaled(mean_dev, scale)) {
            out[t] = deviation / (0.015 * mean_dev);
        } else {
            out[t] = 0.0;
        }
    }
}

}  // namespace btforge
