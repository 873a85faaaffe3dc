#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Parameters of the default strategy, one field per entry of
// spec/default_strategy.json (same names; bools are ints 0/1).
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
    // Decision and risk rules.
    int mode;  // 0 trend, 1 mean reversion
    int allow_short;
    double rsi_max_long;
    double rsi_min_short;
    double adx_min;
    double breadth_min;
    double rsi_oversold;
    double rsi_overbought;
    double sl_atr;
    double tp1_atr;
    double tp1_frac;
    double tp_atr;
    double trail_activate_atr;
    double trail_atr;  // 0 disables trailing
    double risk_per_trade;
    double max_leverage;
    int max_positions;
    int cooldown_bars;
    int max_hold_bars;  // 0 disables the time exit
};

// The indicator series the strategy reads, each [n_symbols * n_bars] in the
// aligned layout (see Note [Aligned market layout]); names are the ids of the
// spec's "indicators" list.
struct BT_KERNEL DefaultSeries {
    const double* ema_fast;
    const double* ema_slow;
    const double* rsi;
    const double* adx;
    const double* atr;
    const double* bb_upper;
    const double* bb_lower;
    const double* breadth;
};

}  // namespace btforge
