#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Parameters of the default strategy, one field per entry of
// spec/default.json (same names; bools are ints 0/1).
struct BT_KERNEL DefaultParams {
    // Indicator series (series: true in the spec).
    int ema_fast;
    int ema_slow;
    int rsi_period;
    int adx_period;
    int atr_period;
    int bb_period;
    double bb_k;
    int breadth_period;
    // Decision and risk rules. BT_COLD (Note [Cold fields]): read only once a
    // signal fired, when an order is sized or a trade is closed, or (the
    // trailing activation, the holding limit) for open positions.
    int mode;  // 0 trend, 1 mean reversion
    BT_COLD int allow_short;
    BT_COLD double rsi_max_long;
    BT_COLD double rsi_min_short;
    BT_COLD double adx_min;
    BT_COLD double breadth_min;
    BT_COLD double rsi_oversold;
    BT_COLD double rsi_overbought;
    BT_COLD double sl_atr;
    BT_COLD double tp1_atr;
    BT_COLD double tp1_frac;
    BT_COLD double tp_atr;
    BT_COLD double trail_activate_atr;
    double trail_atr;  // 0 disables trailing
    BT_COLD double risk_per_trade;
    BT_COLD double max_leverage;
    BT_COLD int max_positions;
    BT_COLD int cooldown_bars;
    BT_COLD int max_hold_bars;  // 0 disables the time exit
};

// The indicator series the strategy reads, each [n_symbols * n_bars] in the
// aligned layout (see Note [Aligned market layout]); names are the ids of the
// spec's "indicators" list.
// RSI, ADX, ATR and breadth are read only where a signal may fire (Note
// [Signals that cannot fire]) or once it fired (BT_COLD, Note [Cold fields]);
// the EMAs and the bands are what the trend and the mean-reversion
// combinations read on every bar.
struct BT_KERNEL DefaultSeries {
    const double* ema_fast;
    const double* ema_slow;
    BT_COLD const double* rsi;
    BT_COLD const double* adx;
    BT_COLD const double* atr;
    const double* bb_upper;
    const double* bb_lower;
    BT_COLD const double* breadth;
};

}  // namespace btforge
