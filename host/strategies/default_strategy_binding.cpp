#include "host/strategies/default_strategy_binding.h"

#include "host/strategies/parameter_cast.h"
#include "reference/strategies/default/default_strategy.h"

namespace btforge {

namespace {

void run_default(const MarketView& market, const double* const* series, const double* v, const AccountConfig& config,
                 Metrics& out, FillLog* log, double* equity_curve) {
    DefaultParams p{};
    p.ema_fast = int_param(v[0]);
    p.ema_slow = int_param(v[1]);
    p.rsi_period = int_param(v[2]);
    p.adx_period = int_param(v[3]);
    p.atr_period = int_param(v[4]);
    p.bb_period = int_param(v[5]);
    p.bb_k = v[6];
    p.breadth_period = int_param(v[7]);
    p.mode = int_param(v[8]);
    p.allow_short = int_param(v[9]);
    p.rsi_max_long = v[10];
    p.rsi_min_short = v[11];
    p.adx_min = v[12];
    p.breadth_min = v[13];
    p.rsi_oversold = v[14];
    p.rsi_overbought = v[15];
    p.sl_atr = v[16];
    p.tp1_atr = v[17];
    p.tp1_frac = v[18];
    p.tp_atr = v[19];
    p.trail_activate_atr = v[20];
    p.trail_atr = v[21];
    p.risk_per_trade = v[22];
    p.max_leverage = v[23];
    p.max_positions = int_param(v[24]);
    p.cooldown_bars = int_param(v[25]);
    p.max_hold_bars = int_param(v[26]);
    DefaultSeries s{};
    s.ema_fast = series[0];
    s.ema_slow = series[1];
    s.rsi = series[2];
    s.adx = series[3];
    s.atr = series[4];
    s.bb_upper = series[5];
    s.bb_lower = series[6];
    s.breadth = series[7];
    run_default_strategy(market, s, p, config, out, log, equity_curve);
}

}  // namespace

StrategyBinding default_strategy_binding() {
    return StrategyBinding{
        "default",
        "default_strategy.json",
        {"ema_fast", "ema_slow", "rsi_period", "adx_period", "atr_period", "bb_period", "bb_k", "breadth_period",
         "mode", "allow_short", "rsi_max_long", "rsi_min_short", "adx_min", "breadth_min", "rsi_oversold",
         "rsi_overbought", "sl_atr", "tp1_atr", "tp1_frac", "tp_atr", "trail_activate_atr", "trail_atr",
         "risk_per_trade", "max_leverage", "max_positions", "cooldown_bars", "max_hold_bars"},
        {"ema_fast", "ema_slow", "rsi", "adx", "atr", "bb_upper", "bb_lower", "breadth"},
        &run_default,
    };
}

}  // namespace btforge
