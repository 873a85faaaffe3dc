#pragma once

// OBV: on-balance volume, TA-Lib TA_OBV.
// Definition: obv += volume when the close rose, -= volume when it fell,
// unchanged on an equal close.
// Lookback: 0.
// Seed: obv = volume[0] at bar 0.

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int obv_lookback() { return 0; }

BT_KERNEL inline void obv_compute(const double* close, const double* volume, int n, double* out) {
    if (n <= 0) return;
    double obv = volume[0];
    double prev_close = close[0];
    for (int t = 0; t < n; ++t) {
        const double c = close[t];
        if (c > prev_close) obv += volume[t];
        else if (c < prev_close) obv -= volume[t];
        out[t] = obv;
        prev_close = c;
    }
}

}  // namespace btforge
