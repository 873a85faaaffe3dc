#pragma once

#include <cmath>

#include "reference/kernel_marker.h"
#include "reference/strategies/default/params.h"

namespace btforge {

// SPEC §6 step 5: the direction the indicators of bar t ask for: +1 long,
// -1 short, 0 none. No signal while any series the mode reads is NaN (before
// its lookback), and none at bar 0 of a crossover (no previous bar).
// `i` is the aligned index of (symbol, t), `prev` that of (symbol, t - 1).
// Note [Cheapest rejection first]
// The trend signal is 0 unless every input is a number, the EMAs cross and
// ADX clears adx_min; with RSI and breadth it picks the side. It reads ADX
// and the four EMA values together (one wait for five loads on the GPU),
// tests the cross, the rarest to pass, then ADX, and reads RSI and breadth
// only after both. That returns the same value as testing every input for
// NaN up front: a comparison with NaN is false, so a cross implies that the
// four EMA values are numbers, and ADX, RSI and breadth are tested for NaN
// explicitly. Most bars are rejected after five loads instead of seven.
BT_KERNEL inline int trend_signal(const DefaultSeries& s, const DefaultParams& p, int i, int prev) {
    double adx = s.adx[i];
    double fast = s.ema_fast[i];
    double slow = s.ema_slow[i];
    double fast_prev = s.ema_fast[prev];
    double slow_prev = s.ema_slow[prev];
    int cross = 0;
    if (fast > slow && fast_prev <= slow_prev) cross = 1;
    if (fast < slow && fast_prev >= slow_prev) cross = -1;
    if (cross == 0 || std::isnan(adx) || adx < p.adx_min) return 0;
    double rsi = s.rsi[i];
    double breadth = s.breadth[i];
    if (std::isnan(rsi) || std::isnan(breadth)) return 0;
    if (cross > 0) return rsi < p.rsi_max_long && breadth >= p.breadth_min ? 1 : 0;
    return rsi > p.rsi_min_short && breadth <= 1.0 - p.breadth_min ? -1 : 0;
}

BT_KERNEL inline int mean_reversion_signal(const DefaultSeries& s, const DefaultParams& p, int i, double close) {
    double upper = s.bb_upper[i];
    double lower = s.bb_lower[i];
    double rsi = s.rsi[i];
    if (std::isnan(upper) || std::isnan(lower) || std::isnan(rsi)) return 0;
    if (close < lower && rsi < p.rsi_oversold) return 1;
    if (close > upper && rsi > p.rsi_overbought) return -1;
    return 0;
}

BT_KERNEL inline int entry_signal(const DefaultSeries& s, const DefaultParams& p, int i, int prev, double close) {
    if (p.mode == 0) return trend_signal(s, p, i, prev);
    return mean_reversion_signal(s, p, i, close);
}

}  // namespace btforge
