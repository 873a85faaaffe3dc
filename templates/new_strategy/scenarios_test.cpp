// Hand-worked scenarios of the {{name}} strategy (written by btforge-gen
// --new-strategy for its skeleton rule: change them with the rule). Each
// runs the reference kernel on a few bars of a flat market at 100 with no
// fees, so every number below can be checked by hand.
#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include "reference/strategies/{{name}}/{{name}}_strategy.h"
#include "reference/strategies/tests/scenario_market.h"

using namespace btforge;
using namespace btforge::testing;

namespace {

struct {{type}}Scenario {
    ScenarioMarket market;
    std::vector<double> sma;
    {{type}}Params params{50, 0.05, 0.5, 1};
    AccountConfig account = frictionless_account();

    // The SMA starts above the flat close of 100: no signal until a test moves it.
    explicit {{type}}Scenario(int bars) : market(1, bars), sma(static_cast<std::size_t>(bars), 101.0) {}
    void sma_from(int t, double value) {
        for (int u = t; u < market.n_bars; ++u) sma[static_cast<std::size_t>(u)] = value;
    }
    ScenarioResult run() const {
        {{type}}Series series{sma.data()};
        MarketView view = market.view();
        return run_scenario(market.n_bars, [&](Metrics& m, FillLog* log, double* equity) {
            run_{{name}}_strategy(view, series, params, account, m, log, equity, nullptr);
        });
    }
};

}  // namespace

TEST_CASE("{{name}}: the close crossing above its SMA goes long at the next open with a fraction of equity") {
    {{type}}Scenario sc(10);
    sc.sma_from(2, 99.0);  // bar 2: close 100 > SMA 99, bar 1: close 100 <= SMA 101
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[0].bar == 3);
    CHECK(r.fills[0].qty == 50.0);  // 0.5 * 10000 / 100
    CHECK(r.fills[1].reason == kEndOfData);
    CHECK(r.metrics.n_trades == 1);
}

TEST_CASE("{{name}}: the fixed stop follows the shared gap rule") {
    {{type}}Scenario sc(10);
    sc.sma_from(2, 99.0);
    // Opens below the stop at 100 * (1 - 0.05) = 95, then recovers to close
    // at 100 again (still above the SMA: no new signal).
    sc.market.bar(0, 5, 94.0, 100.5, 93.0, 100.0);
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kStopGap);
    CHECK(r.fills[1].price == 94.0);
    CHECK(r.metrics.net_pnl == -300.0);  // 50 * (94 - 100), exact: no fees
}

TEST_CASE("{{name}}: a cross down reverses into a short, or only exits without shorts") {
    for (int allow_short : {0, 1}) {
        CAPTURE(allow_short);
        {{type}}Scenario sc(12);
        sc.params.allow_short = allow_short;
        sc.sma_from(2, 99.0);
        sc.sma_from(6, 101.0);  // bar 6: close 100 < SMA 101, bar 5: close 100 >= SMA 99
        ScenarioResult r = sc.run();
        CHECK(r.count(kSignalExit) == 1);
        CHECK(r.count(kEntry) == 1 + allow_short);
    }
}
