#pragma once

// MACD(fast, slow, signal): TA-Lib TA_MACD (TA_INT_MACD).
// Definition: macd = EMA(fast) - EMA(slow); signal = EMA(signal) of macd;
// hist = macd - signal. TA-Lib swaps fast and slow when slow < fast.
// Lookback: (slow - 1) + (signal - 1).
// Seed: both EMAs produce their first value on bar slow-1: the slow one is
// seeded by the mean of bars 0..slow-1, the fast one by the mean of its last
// `fast` bars slow-fast..slow-1 (not of bars 0..fast-1). The signal EMA is
// seeded by the mean of the first `signal` macd values. Every EMA uses
// k = 2/(period+1).
//
// Note [MACD scratch]
// No extra buffer: the slow EMA is built in `hist`, the fast one in `macd`,
// which then becomes fast - slow; the signal reads macd, and hist is
// overwritten last. Prefixes are set to NaN at the end because macd before the
// lookback is still input to the signal seed.

#include "reference/indicators/common.h"
#include "reference/indicators/ema.h"

namespace btforge {

BT_KERNEL inline int macd_lookback(int fast, int slow, int signal) {
    const int longest = slow < fast ? fast : slow;
    return (longest - 1) + (signal - 1);
}

BT_KERNEL inline void macd_compute(const double* in, int n, int fast, int slow, int signal, double* macd,
                                   double* macd_signal, double* hist) {
    const int lookback = macd_lookback(fast, slow, signal);
    if (n <= lookback) {
        indicator_fill_nan(macd, 0, n);
        indicator_fill_nan(macd_signal, 0, n);
        indicator_fill_nan(hist, 0, n);
        return;
    }
    if (slow < fast) {
        const int swap = slow;
        slow = fast;
        fast = swap;
    }
    const int first = slow - 1;
    ema_from(in, n, slow, ema_k(slow), first, hist);
    ema_from(in, n, fast, ema_k(fast), first, macd);
    for (int t = first; t < n; ++t) macd[t] = macd[t] - hist[t];
    // The signal EMA runs over the macd series as if it began at bar `first`.
    ema_from(macd + first, n - first, signal, ema_k(signal), signal - 1, macd_signal + first);
    for (int t = lookback; t < n; ++t) hist[t] = macd[t] - macd_signal[t];
    indicator_fill_nan(macd, 0, lookback);
    indicator_fill_nan(macd_signal, 0, lookback);
    indicator_fill_nan(hist, 0, lookback);
}

}  // namespace btforge
