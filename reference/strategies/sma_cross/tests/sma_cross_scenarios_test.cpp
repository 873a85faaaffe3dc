#include <doctest/doctest.h>

#include "reference/strategies/sma_cross/sma_cross_strategy.h"
#include "reference/strategies/tests/scenario_market.h"

using namespace btforge;
using namespace btforge::testing;

namespace {

struct SmaScenario {
    ScenarioMarket market;
    std::vector<double> fast, slow;
    SmaCrossParams params{10, 40, 0.05, 0.5, 1};
    AccountConfig account = frictionless_account();

    SmaScenario(int bars) : market(1, bars), fast(static_cast<std::size_t>(bars), 99.0),
                            slow(static_cast<std::size_t>(bars), 100.0) {}
    void fast_from(int t, double value) {
        for (int u = t; u < market.n_bars; ++u) fast[static_cast<std::size_t>(u)] = value;
    }
    ScenarioResult run() const {
        SmaCrossSeries series{fast.data(), slow.data()};
        MarketView view = market.view();
        return run_scenario(market.n_bars, [&](Metrics& m, FillLog* log, double* equity) {
            run_sma_cross_strategy(view, series, params, account, m, log, equity, nullptr);
        });
    }
};

}  // namespace

TEST_CASE("sma_cross: a cross up goes long at the next open with a fraction of equity") {
    SmaScenario sc(10);
    sc.fast_from(2, 101.0);
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[0].bar == 3);
    CHECK(r.fills[0].qty == 50.0);  // 0.5 * 10000 / 100
    CHECK(r.fills[1].reason == kEndOfData);
}

TEST_CASE("sma_cross: the fixed stop follows the shared gap rule") {
    SmaScenario sc(10);
    sc.fast_from(2, 101.0);
    sc.market.bar(0, 5, 94.0, 94.5, 93.0, 94.0);  // opens below the stop at 95
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kStopGap);
    CHECK(r.fills[1].price == 94.0);
}

TEST_CASE("sma_cross: a cross down reverses into a short, or only exits without shorts") {
    for (int allow_short : {0, 1}) {
        CAPTURE(allow_short);
        SmaScenario sc(12);
        sc.params.allow_short = allow_short;
        sc.fast_from(2, 101.0);
        sc.fast_from(6, 99.0);
        ScenarioResult r = sc.run();
        CHECK(r.count(kSignalExit) == 1);
        CHECK(r.count(kEntry) == 1 + allow_short);
    }
}

TEST_CASE("sma_cross: a stop and a liquidation are both adverse, so no bar is ambiguous") {
    // Note [Ambiguous bars]: the bar reaches the stop at 95 and rises to 110
    // first or after; with no target nothing on the other side can happen.
    SmaScenario sc(10);
    sc.fast_from(2, 101.0);
    sc.market.bar(0, 5, 100.0, 110.0, 93.0, 100.0);
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kStopLoss);
    CHECK(r.metrics.ambiguous_bars == 0);
}
