#pragma once

// The hand-worked market of band_reversion's scenario tests: one symbol, a
// market flat at 100, bands fixed by the test at 98 / 100 / 102 and ATR 2.
// Default case: fade (mode 0), orders 0.5 ATR = 1.0 beyond the band, live 3
// bars, stop 2 ATR = 4.0 from the fill, half the equity per entry, no fees
// unless a case sets them.
#include <cstddef>
#include <vector>

#include "reference/strategies/band_reversion/band_reversion_strategy.h"
#include "reference/strategies/tests/scenario_market.h"

namespace btforge::testing {

struct BandScenario {
    ScenarioMarket market;
    std::vector<double> upper, middle, lower, atr;
    BandReversionParams params{20, 2.0, 14, 0, 0.5, 3, 2.0, 0.5, 1};
    AccountConfig account = frictionless_account();

    explicit BandScenario(int bars)
        : market(1, bars), upper(static_cast<std::size_t>(bars), 102.0), middle(static_cast<std::size_t>(bars), 100.0),
          lower(static_cast<std::size_t>(bars), 98.0), atr(static_cast<std::size_t>(bars), 2.0) {}
    // A bar closing at `close`, its range just wide enough to hold open and close.
    void close_at(int t, double close) {
        market.bar(0, t, 100.0, close > 100.0 ? close : 100.0, close < 100.0 ? close : 100.0, close);
    }
    ScenarioResult run() const {
        BandReversionSeries series{upper.data(), middle.data(), lower.data(), atr.data()};
        MarketView view = market.view();
        return run_scenario(market.n_bars, [&](Metrics& m, FillLog* log, double* equity) {
            run_band_reversion_strategy(view, series, params, account, m, log, equity, nullptr);
        });
    }
};

}  // namespace btforge::testing
