#pragma once

// ADX(period): Wilder's average directional index, TA-Lib TA_ADX.
// Definition: +DI, -DI as in plus_di.h / minus_di.h (Wilder sums, the TR sum
// tested exactly); DX = 100 * (|-DI - +DI| / (-DI + +DI)); ADX = Wilder's
// average of DX.
// Lookback: 2*period - 1.
// Seed: DM and TR sums over bars 1..period-1; the DX of bars period..2p-1 are
// summed and ADX = sum/period at bar 2p-1; then
// `adx = (adx*(period-1) + dx) / period`.
//
// Note [ADX zero tests]
// TA-Lib skips a bar, it does not count DX as 0: where TR_n is exactly zero
// (a sum of true ranges: zero only when every range in it is), or -DI + +DI
// is zero within TA_IS_ZERO (dimensionless, 0 .. 200), that bar adds nothing
// to the seed sum (which is still divided by period) and later leaves the ADX
// unchanged. Note [TA-Lib zero tests] says why TR_n is not tested against
// the fixed band: TA-Lib 0.8.1 dropped it (its #253), which zeroed the index
// of instruments quoted near 1e-12.

#include "reference/indicators/common.h"

namespace btforge {

BT_KERNEL inline int adx_lookback(int period) { return 2 * period - 1; }

// Advances the Wilder sums by bar t and returns whether a DX exists there.
BT_KERNEL inline bool adx_step(const double* high, const double* low, const double* close, int t, int period,
                               double* plus_sum, double* minus_sum, double* tr_sum, double* dx) {
    *minus_sum -= *minus_sum / period;
    *plus_sum -= *plus_sum / period;
    *minus_sum += minus_dm(high[t], high[t - 1], low[t], low[t - 1]);
    *plus_sum += plus_dm(high[t], high[t - 1], low[t], low[t - 1]);
    *tr_sum = *tr_sum - (*tr_sum / period) + true_range(high[t], low[t], close[t - 1]);
    if (!(*tr_sum > 0.0)) return false;
    const double minus_di = 100.0 * (*minus_sum / *tr_sum);
    const double plus_di = 100.0 * (*plus_sum / *tr_sum);
    const double di_sum = minus_di + plus_di;
    if (ta_is_zero(di_sum)) return false;
    *dx = 100.0 * (std::fabs(minus_di - plus_di) / di_sum);
    return true;
}

BT_KERNEL inline void adx_compute(const double* high, const double* low, const double* close, int n, int period,
                                  double* out) {
    const int lookback = adx_lookback(period);
    if (n <= lookback) {
        indicator_fill_nan(out, 0, n);
        return;
    }
    indicator_fill_nan(out, 0, lookback);
    double plus_sum = 0.0;
    double minus_sum = 0.0;
    double tr_sum = 0.0;
    for (int t = 1; t < period; ++t) {
        minus_sum += minus_dm(high[t], high[t - 1], low[t], low[t - 1]);
        plus_sum += plus_dm(high[t], high[t - 1], low[t], low[t - 1]);
        tr_sum += true_range(high[t], low[t], close[t - 1]);
    }
    double dx_sum = 0.0;
    double dx = 0.0;
    for (int t = period; t <= lookback; ++t) {
        if (adx_step(high, low, close, t, period, &plus_sum, &minus_sum, &tr_sum, &dx)) dx_sum += dx;
    }
    double adx = dx_sum / period;
    out[lookback] = adx;
    for (int t = lookback + 1; t < n; ++t) {
        if (adx_step(high, low, close, t, period, &plus_sum, &minus_sum, &tr_sum, &dx)) {
            adx = ((adx * (period - 1)) + dx) / period;
        }
        out[t] = adx;
    }
}

}  // namespace btforge
