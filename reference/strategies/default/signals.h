#pragma once

#include <cmath>

#include "reference/kernel_marker.h"
#include "reference/market/market_view.h"
#include "reference/market/symbol_set.h"
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
// +1 where the fast EMA crosses above the slow one from the previous bar to
// this one, -1 where it crosses below, else 0; a NaN never crosses (a
// comparison with NaN is false). The two cases exclude each other.
BT_KERNEL inline int ema_cross(double fast, double slow, double fast_prev, double slow_prev) {
    int up = (fast > slow) & (fast_prev <= slow_prev);
    int down = (fast < slow) & (fast_prev >= slow_prev);
    return up - down;
}

BT_KERNEL inline int trend_signal(const DefaultSeries& s, const DefaultParams& p, int i, int prev) {
    double adx = s.adx[i];
    double fast = s.ema_fast[i];
    double slow = s.ema_slow[i];
    double fast_prev = s.ema_fast[prev];
    double slow_prev = s.ema_slow[prev];
    int cross = ema_cross(fast, slow, fast_prev, slow_prev);
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

// Note [Signals that cannot fire]
// Most bars are rejected by one test that needs no parameter: the trend
// signal needs an EMA cross, the mean-reversion signal a close outside the
// bands. Step 5 asks that of every symbol first, in a loop whose body has no
// branch, so the GPU issues a symbol's loads together and waits once for
// them; then it reads no state of a symbol that can neither signal nor has
// anything to do (Note [Busy symbols]), and runs entry_signal only where the
// answer is yes. A "no" is exact: where the cross is missing (NaN values
// included, a comparison with NaN being false) trend_signal returns 0, and
// where the close is inside the bands (or a band is NaN) so does
// mean_reversion_signal. Unrolled, the loop would issue several symbols'
// loads at once, but that measured slower (Note [Loops kept rolled]).
BT_KERNEL inline int ema_cross_at(const DefaultSeries& s, int i, int prev) {
    double fast = s.ema_fast[i];
    double slow = s.ema_slow[i];
    double fast_prev = s.ema_fast[prev];
    double slow_prev = s.ema_slow[prev];
    return ema_cross(fast, slow, fast_prev, slow_prev) != 0;
}

BT_KERNEL inline int close_outside_bands_at(const DefaultSeries& s, int i, double close) {
    return (close < s.bb_lower[i]) | (close > s.bb_upper[i]);
}

// The symbols tradable at bar t whose signal may fire (Note [Signals that
// cannot fire]).
BT_KERNEL inline SymbolSet symbols_that_may_signal(const MarketView& m, const DefaultSeries& s, const DefaultParams& p,
                                                   int t) {
    SymbolSet may_signal;
    symbol_set_clear(may_signal, m.n_symbols);
    if (p.mode == 0) {
        BT_NO_UNROLL  // Note [Loops kept rolled]
        for (int sym = 0; sym < m.n_symbols; ++sym) {
            int i = market_index(m, sym, t);
            int prev = t > 0 ? i - 1 : i;
            int may = (m.tradable[i] != 0) & ema_cross_at(s, i, prev);
            symbol_set_add_if(may_signal, sym, may);
        }
    } else {
        BT_NO_UNROLL
        for (int sym = 0; sym < m.n_symbols; ++sym) {
            int i = market_index(m, sym, t);
            int may = (m.tradable[i] != 0) & close_outside_bands_at(s, i, m.close[i]);
            symbol_set_add_if(may_signal, sym, may);
        }
    }
    return may_signal;
}

BT_KERNEL inline int entry_signal(const DefaultSeries& s, const DefaultParams& p, int i, int prev, double close) {
    if (p.mode == 0) return trend_signal(s, p, i, prev);
    return mean_reversion_signal(s, p, i, close);
}

}  // namespace btforge
