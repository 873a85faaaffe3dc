// Hand-worked scenarios of the cross-sectional example (Note
// [Cross-sectional ranking]): a flat market at 100, no fees, 10,000 of
// equity; ROC and ATR set by hand; rebalance_bars 4, so rankings happen at
// the closes of bars 3, 7, 11, ... and fill at the next opens. With ATR 1 and
// risk_per_position 0.005 an entry is 10000 * 0.005 / 1 = 50 units, under
// the cap of max_leverage 2 / (2 * top_k) of equity.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "reference/strategies/tests/scenario_market.h"
#include "reference/strategies/xs_momentum/xs_momentum_strategy.h"

using namespace btforge;
using namespace btforge::testing;

namespace {

struct XsScenario {
    ScenarioMarket market;
    std::vector<double> roc, atr;
    XsMomentumParams params{24, 24, 4, 1, 0.005, 2.0, 1};
    AccountConfig account = frictionless_account();

    XsScenario(int symbols, int bars)
        : market(symbols, bars),
          roc(static_cast<std::size_t>(symbols * bars), std::numeric_limits<double>::quiet_NaN()),
          atr(static_cast<std::size_t>(symbols * bars), 1.0) {}
    // The ROC of every symbol at bar t (a ranking reads only its own bar).
    void rocs_at(int t, std::vector<double> values) {
        for (std::size_t s = 0; s < values.size(); ++s) roc[market.at(static_cast<int>(s), t)] = values[s];
    }
    ScenarioResult run() const {
        XsMomentumSeries series{roc.data(), atr.data()};
        MarketView view = market.view();
        return run_scenario(market.n_bars, [&](Metrics& m, FillLog* log, double* equity) {
            run_xs_momentum_strategy(view, series, params, account, m, log, equity, nullptr);
        });
    }
};

// The entries (and, with `reason`, other fills) of a bar as (symbol, side) pairs in fill order.
std::vector<std::pair<int, int>> fills_at(const ScenarioResult& r, int bar, int reason) {
    std::vector<std::pair<int, int>> out;
    for (const FillRecord& f : r.fills) {
        if (f.bar == bar && f.reason == reason) out.emplace_back(f.symbol, f.trade_dir);
    }
    return out;
}

using Fills = std::vector<std::pair<int, int>>;

}  // namespace

TEST_CASE("xs_momentum: the highest score goes long and the lowest short at the next open, by equal risk") {
    XsScenario sc(4, 12);
    sc.rocs_at(3, {1.0, 5.0, 2.0, -1.0});  // with ATR 1 scores 100, 500, 200, -100
    sc.atr[sc.market.at(1, 3)] = 2.0;      // s1 moves twice as much: 5 * 100 / 2 = 250, still first, s3 last
    ScenarioResult r = sc.run();
    CHECK(fills_at(r, 4, kEntry) == Fills{{1, 1}, {3, -1}});
    REQUIRE(r.fills.size() >= 2);
    CHECK(r.fills[0].qty == 25.0);  // 10000 * 0.005 / ATR 2
    CHECK(r.fills[1].qty == 50.0);  // 10000 * 0.005 / ATR 1
    CHECK(r.fills[0].price == 100.0);
    CHECK(r.count(kEndOfData) == 2);
}

TEST_CASE("xs_momentum: the move is scaled by volatility: a calmer symbol's smaller move ranks higher") {
    XsScenario sc(3, 12);
    sc.rocs_at(3, {3.0, 2.0, -1.0});
    sc.atr[sc.market.at(0, 3)] = 2.0;  // s0: 3 * 100 / 2 = 150, below s1's 2 * 100 / 1 = 200
    CHECK(fills_at(sc.run(), 4, kEntry) == Fills{{1, 1}, {2, -1}});
    sc.atr[sc.market.at(0, 3)] = 1.0;  // unscaled, s0's 3% comes first
    CHECK(fills_at(sc.run(), 4, kEntry) == Fills{{0, 1}, {2, -1}});
}

TEST_CASE("xs_momentum: equal scores rank by symbol index, lowest first") {
    XsScenario sc(4, 12);
    sc.rocs_at(3, {2.0, 2.0, 1.0, 2.0});  // s0, s1, s3 tie; s2 last
    sc.params.top_k = 1;
    CHECK(fills_at(sc.run(), 4, kEntry) == Fills{{0, 1}, {2, -1}});
    // Two a side: s0 and s1 long; the last two of the order s0, s1, s3, s2 short.
    sc.params.top_k = 2;
    CHECK(fills_at(sc.run(), 4, kEntry) == Fills{{0, 1}, {1, 1}, {2, -1}, {3, -1}});
    // A top_k larger than half of the ranked symbols is cut to it: 4 ranked, two a side.
    sc.params.top_k = 3;
    CHECK(fills_at(sc.run(), 4, kEntry) == Fills{{0, 1}, {1, 1}, {2, -1}, {3, -1}});
}

TEST_CASE("xs_momentum: a symbol without a bar at the rebalance is not ranked; an order waits for its symbol's bar") {
    XsScenario sc(4, 12);
    sc.rocs_at(3, {1.0, 9.0, 2.0, -1.0});
    sc.market.tradable[sc.market.at(1, 3)] = 0;  // s1, the best score, has no bar at the ranking
    sc.market.tradable[sc.market.at(3, 4)] = 0;  // s3's order meets no bar at bar 4
    ScenarioResult r = sc.run();
    // Ranked: s2, s0, s3. s2 long at bar 4; s3 short at its next bar, 5.
    CHECK(fills_at(r, 4, kEntry) == Fills{{2, 1}});
    CHECK(fills_at(r, 5, kEntry) == Fills{{3, -1}});
    CHECK(r.count(kEntry) == 2);
    // Indicators not ready are not ranked either: with s0's ROC unknown, s2 long and s3 short among two.
    XsScenario nan(4, 12);
    nan.rocs_at(3, {std::nan(""), std::nan(""), 2.0, -1.0});
    CHECK(fills_at(nan.run(), 4, kEntry) == Fills{{2, 1}, {3, -1}});
}

TEST_CASE("xs_momentum: a rebalance trades only what changed: kept, closed, reversed") {
    XsScenario sc(4, 16);
    sc.rocs_at(3, {1.0, 3.0, 2.0, -1.0});   // long s1, short s3
    sc.rocs_at(7, {-2.0, 3.0, -1.0, 1.0});  // s1 stays first; s0 now last: s3 leaves its short, s0 goes short
    sc.rocs_at(11, {0.0, -5.0, 5.0, 1.0});  // s1 from long to short, s2 long, s0 out
    ScenarioResult r = sc.run();
    CHECK(fills_at(r, 4, kEntry) == Fills{{1, 1}, {3, -1}});
    CHECK(fills_at(r, 8, kSignalExit) == Fills{{3, 1}});  // s3's short bought back
    CHECK(fills_at(r, 8, kEntry) == Fills{{0, -1}});      // s0 short; s1 kept: no fill
    CHECK(fills_at(r, 12, kSignalExit) == Fills{{0, 1}, {1, -1}});
    CHECK(fills_at(r, 12, kEntry) == Fills{{1, -1}, {2, 1}});
    CHECK(r.metrics.n_trades == 5);  // s1 long, s3 short, s0 short, s1 short, s2 long
}

TEST_CASE("xs_momentum: without shorts the bottom is only left") {
    XsScenario sc(4, 12);
    sc.params.allow_short = 0;
    sc.rocs_at(3, {1.0, 3.0, 2.0, -1.0});
    CHECK(fills_at(sc.run(), 4, kEntry) == Fills{{1, 1}});
}

TEST_CASE("xs_momentum: the notional cap, max_leverage over both sides, binds a calm symbol") {
    XsScenario sc(2, 12);
    sc.rocs_at(3, {1.0, -1.0});
    sc.atr[sc.market.at(0, 3)] = 0.1;  // risk alone asks for 10000 * 0.005 / 0.1 = 500 units
    ScenarioResult r = sc.run();
    REQUIRE(r.count(kEntry) == 2);
    CHECK(r.fills[0].qty == 100.0);  // cap: 2 / (2 * 1) * 10000 / 100
    CHECK(r.fills[1].qty == 50.0);
}

TEST_CASE("xs_momentum: its positions pay funding like every strategy's") {
    XsScenario sc(2, 12);
    sc.rocs_at(3, {1.0, -1.0});  // long s0 and short s1, 50 units each at 100
    sc.market.funding_rate.assign(sc.market.funding_rate.size(), 0.001);
    sc.market.funding_events[sc.market.at(0, 6)] = 1;
    sc.market.funding_events[sc.market.at(1, 6)] = 1;
    ScenarioResult r = sc.run();
    // The long pays 50 * 100 * 0.001 = 5, the short receives it: net 0 paid.
    CHECK(r.metrics.funding_paid == 0.0);
    // Note [Funding in the fill log]: one settlement per holding, each under its own trade.
    REQUIRE(r.funding.size() == 2);
    CHECK(r.funding[0].funding == 5.0);
    CHECK(r.funding[1].funding == -5.0);
    CHECK(r.funding[0].trade_index != r.funding[1].trade_index);
    sc.market.funding_events[sc.market.at(1, 6)] = 0;
    CHECK(sc.run().metrics.funding_paid == 5.0);
}
