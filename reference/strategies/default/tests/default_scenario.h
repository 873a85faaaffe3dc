#pragma once

// The default strategy on a hand-made market: entries at 100, ATR 1, no
// fees; each test shapes the bars and the indicator series it needs.
#include <vector>

#include "reference/strategies/default/default_strategy.h"
#include "reference/strategies/tests/scenario_market.h"

namespace btforge::testing {

struct DefaultScenario {
    ScenarioMarket market;
    std::vector<double> ema_fast, ema_slow, rsi, adx, atr, bb_upper, bb_lower, breadth;
    DefaultParams params{};
    AccountConfig account = frictionless_account();

    DefaultScenario(int symbols, int bars) : market(symbols, bars) {
        std::size_t cells = static_cast<std::size_t>(symbols * bars);
        ema_fast.assign(cells, 99.0);  // below the slow EMA: no cross until a test makes one
        ema_slow.assign(cells, 100.0);
        rsi.assign(cells, 50.0);
        adx.assign(cells, 30.0);
        atr.assign(cells, 1.0);
        bb_upper.assign(cells, 110.0);
        bb_lower.assign(cells, 90.0);
        breadth.assign(cells, 0.5);
        params.ema_fast = 2;
        params.ema_slow = 3;
        params.mode = 0;
        params.allow_short = 1;
        params.rsi_max_long = 100.0;
        params.rsi_min_short = 0.0;
        params.adx_min = 0.0;
        params.breadth_min = 0.0;
        params.rsi_oversold = 30.0;
        params.rsi_overbought = 70.0;
        params.sl_atr = 2.0;    // stop 98 for a long entered at 100
        params.tp1_atr = 3.0;   // TP1 103
        params.tp1_frac = 0.5;
        params.tp_atr = 6.0;    // TP 106
        params.trail_activate_atr = 100.0;
        params.trail_atr = 0.0;  // off
        params.risk_per_trade = 0.01;  // 10000 * 0.01 / (2 * 1) = 50 units
        params.max_leverage = 10.0;
        params.max_positions = 4;
        params.cooldown_bars = 0;
        params.max_hold_bars = 0;
    }
    // The fast EMA is above the slow one from bar t on (a cross up at t) or below it.
    void fast_from(int s, int t, double value) {
        for (int u = t; u < market.n_bars; ++u) ema_fast[market.at(s, u)] = value;
    }
    void cross_up(int s, int t) { fast_from(s, t, 101.0); }
    void cross_down(int s, int t) { fast_from(s, t, 99.0); }

    ScenarioResult run() const {
        DefaultSeries series{ema_fast.data(), ema_slow.data(), rsi.data(), adx.data(),
                             atr.data(), bb_upper.data(), bb_lower.data(), breadth.data()};
        MarketView view = market.view();
        return run_scenario(market.n_bars, [&](Metrics& m, FillLog* log, double* equity) {
            run_default_strategy(view, series, params, account, m, log, equity, nullptr);
        });
    }
};


}  // namespace btforge::testing
