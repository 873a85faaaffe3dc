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
    // A long (side 1) or a short (-1) of symbol 0 entered at bar 3's open on
    // the cross of bar 2. With `trailing`, the stop trails 1 ATR behind the
    // best price once 2 ATR in profit, and TP1 is moved out of the way (50
    // ATR) so that the stop's lift is what a test asks about.
    void bracket_from_bar_3(int side, bool trailing) {
        if (side > 0) {
            cross_up(0, 2);
        } else {
            fast_from(0, 0, 101.0);
            cross_down(0, 2);
        }
        if (trailing) {
            params.trail_activate_atr = 2.0;
            params.trail_atr = 1.0;
            params.tp1_atr = 50.0;
        }
    }
    // The isolated long of default_liquidation_test.cpp, entered at 100 on
    // bar 3: 2 500 units, margin 5 000, one tier at 1% and a 2% fee, so it is
    // liquidated at 245000 / 2475 = 98.99, above its stop at 96.
    void isolated_long_liquidated_at_98_99() {
        MarginSchedule one_tier{};
        one_tier.n_tiers = 1;
        one_tier.liquidation_fee = 0.02;
        one_tier.rate[0] = 0.01;
        market.margin[0] = one_tier;
        account.margin_mode = kIsolatedMargin;
        params.risk_per_trade = 1.0;
        params.sl_atr = 4.0;
        params.max_leverage = 50.0;
        cross_up(0, 2);
    }
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
