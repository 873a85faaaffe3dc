// The shared margin and liquidation rules (Note [Liquidation rule], Note
// [Liquidation fill], Note [Cross and isolated margin]) inside the default
// strategy, one hand-worked scenario each: entries at 100, ATR 1, no fees or
// slippage, 10,000 of equity. Unless a test says otherwise the instrument
// has one maintenance tier at 1% and a 2% liquidation fee, and the entry is
// 2,500 units (risk_per_trade 1 on a stop 4 ATR away; max_leverage 50), a
// notional of 250,000 on an isolated margin of 250,000 / 50 = 5,000. Then
//   cross:    LP = (10000 - 250000) / (2500 * 0.01 - 2500) = 240000 / 2475 = 96.9697,
//   isolated: LP = (5000 - 250000) / (-2475) = 245000 / 2475 = 98.9899,
// both above the stop at 96.
#include <doctest/doctest.h>

#include <cmath>

#include "reference/margin/default_margin_schedule.h"
#include "reference/strategies/default/tests/default_scenario.h"

using namespace btforge;
using namespace btforge::testing;

namespace {

MarginSchedule one_tier_one_percent() {
    MarginSchedule s{};
    s.n_tiers = 1;
    s.liquidation_fee = 0.02;
    s.rate[0] = 0.01;
    return s;
}

// One long (or short, side -1) entered at 100 on bar 3 (the cross of bar 2).
DefaultScenario leveraged(int symbols, int bars, int mode, int side = 1) {
    DefaultScenario sc(symbols, bars);
    for (MarginSchedule& m : sc.market.margin) m = one_tier_one_percent();
    sc.account.margin_mode = mode;
    sc.params.risk_per_trade = 1.0;  // 10000 * 1 / (4 * 1) = 2500 units
    sc.params.sl_atr = 4.0;          // stop 96 (104 for a short)
    sc.params.max_leverage = 50.0;
    if (side > 0) {
        sc.cross_up(0, 2);
    } else {
        sc.fast_from(0, 0, 101.0);  // above the slow EMA, then a cross down at bar 2
        sc.cross_down(0, 2);
    }
    return sc;
}

const double kCrossLong = 240000.0 / 2475.0;     // 96.9697
const double kIsolatedLong = 245000.0 / 2475.0;  // 98.9899

bool near(double a, double b) { return std::fabs(a - b) <= 1e-9; }

}  // namespace

TEST_CASE("cross long: liquidated at its price before the stop below it; the account is gone") {
    DefaultScenario sc = leveraged(1, 10, kCrossMargin);
    sc.market.bar(0, 4, 99.5, 100.0, 95.5, 97.0);  // reaches 96.97 and the stop at 96: the price comes first
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[0].qty == 2500.0);
    const FillRecord& liquidation = r.fills[1];
    CHECK(liquidation.reason == kLiquidation);
    CHECK(liquidation.bar == 4);
    CHECK(liquidation.price == kCrossLong);
    CHECK(liquidation.realized_pnl == quantize(2500.0 * (kCrossLong - 100.0)));  // -7575.76
    // The 2% fee (4848.48) is cut to what is left: the maintenance margin, 1% of 242,424.24.
    CHECK(near(liquidation.fee, 2424.2424242424));
    CHECK(near(liquidation.cash_after, 0.0));
    CHECK(r.metrics.n_trades == 1);
    CHECK(r.metrics.n_liquidations == 1);
    CHECK(near(r.metrics.liquidation_loss, 10000.0));
    CHECK(near(r.metrics.final_equity, 0.0));
}

TEST_CASE("isolated long: its own margin backs it, liquidated higher, and loses exactly that margin") {
    DefaultScenario sc = leveraged(1, 10, kIsolatedMargin);
    sc.market.bar(0, 4, 99.5, 100.0, 98.5, 99.0);  // reaches 98.99, not the cross price nor the stop
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kLiquidation);
    CHECK(r.fills[1].price == kIsolatedLong);
    CHECK(near(r.fills[1].fee, 2474.7474747475));  // 1% of 247,474.75: the margin left at the price
    CHECK(near(r.fills[1].cash_after, 5000.0));    // 10,000 less the 5,000 margin, no more
    CHECK(r.metrics.n_liquidations == 1);
    CHECK(near(r.metrics.liquidation_loss, 5000.0));
    // The same bar in cross margin: 98.5 is above 96.97, nothing happens.
    DefaultScenario cross = leveraged(1, 10, kCrossMargin);
    cross.market.bar(0, 4, 99.5, 100.0, 98.5, 99.0);
    CHECK(cross.run().metrics.n_liquidations == 0);
}

TEST_CASE("a stop above the liquidation price is reached first in the same bar") {
    DefaultScenario sc = leveraged(1, 10, kCrossMargin);
    sc.params.risk_per_trade = 0.5;  // 10000 * 0.5 / (2 * 1) = 2500 units again, stop at 98
    sc.params.sl_atr = 2.0;
    sc.market.bar(0, 4, 99.5, 100.0, 96.0, 97.0);  // reaches the stop at 98 and the price at 96.97
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kStopLoss);
    CHECK(r.fills[1].price == 98.0);
    CHECK(r.metrics.n_liquidations == 0);
    // Isolated, the price (98.99) is above the stop at 98: liquidated first.
    sc.account.margin_mode = kIsolatedMargin;
    ScenarioResult isolated = sc.run();
    CHECK(isolated.fills[1].reason == kLiquidation);
    CHECK(isolated.fills[1].price == kIsolatedLong);
}

TEST_CASE("a gap through the liquidation price fills at the open; cross keeps the loss, isolated cuts it") {
    DefaultScenario cross = leveraged(1, 10, kCrossMargin);
    cross.market.bar(0, 4, 95.0, 95.5, 94.0, 95.0);  // opens below 96.97 and the stop at 96
    ScenarioResult r = cross.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kLiquidation);
    CHECK(r.fills[1].price == 95.0);
    CHECK(r.fills[1].realized_pnl == -12500.0);
    CHECK(r.fills[1].fee == 0.0);  // nothing left to pay it from
    CHECK(r.fills[1].cash_after == -2500.0);
    CHECK(r.metrics.final_equity == -2500.0);

    DefaultScenario isolated = leveraged(1, 10, kIsolatedMargin);
    isolated.market.bar(0, 4, 95.0, 95.5, 94.0, 95.0);
    ScenarioResult i = isolated.run();
    CHECK(i.fills[1].reason == kLiquidation);
    CHECK(i.fills[1].price == 95.0);
    CHECK(i.fills[1].realized_pnl == -5000.0);  // cut to its margin
    CHECK(i.fills[1].cash_after == 5000.0);
}

TEST_CASE("cross short: the mirror, liquidated at (10000 + 250000) / (25 + 2500)") {
    DefaultScenario sc = leveraged(1, 10, kCrossMargin, -1);
    sc.market.bar(0, 4, 100.5, 103.5, 100.0, 103.0);  // reaches 102.97, not the stop at 104
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[0].trade_dir == -1);
    CHECK(r.fills[1].reason == kLiquidation);
    CHECK(r.fills[1].trade_dir == 1);
    CHECK(r.fills[1].price == 260000.0 / 2525.0);  // 102.9703
    CHECK(near(r.fills[1].cash_after, 0.0));
}

TEST_CASE("tier boundary: entered at tier 3's floor, liquidated at tier 2's price (Binance's re-substitution)") {
    DefaultScenario sc = leveraged(1, 10, kCrossMargin);
    for (MarginSchedule& m : sc.market.margin) m = default_margin_schedule();
    // 250,000 at entry is tier 3 (1%, amount 1,300), whose line gives (11300 - 250000) / (25 - 2500) = 96.4444;
    // at that price the notional is 241,111, tier 2 (0.5%, amount 50): (10050 - 250000) / (12.5 - 2500) = 96.4623.
    const double tier2 = 239950.0 / 2487.5;
    sc.market.bar(0, 4, 99.5, 100.0, 96.45, 97.0);  // between the two: liquidated only by the tier the price is in
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kLiquidation);
    CHECK(r.fills[1].price == tier2);
    // Default fee 1% of 241,155.78 = 2411.56, cut to the maintenance margin there: 0.5% - 50 = 1155.78.
    CHECK(near(r.fills[1].fee, 2500.0 * tier2 * 0.005 - 50.0));
    CHECK(near(r.fills[1].cash_after, 0.0));
}

TEST_CASE("cross: another position's loss is what brings this one to its liquidation price") {
    // Both symbols long 2,500 at 100 on bar 3 (used margin 5,000 + 5,000 <= 10,000).
    DefaultScenario sc = leveraged(2, 10, kCrossMargin);
    sc.cross_up(1, 2);
    sc.market.bar(1, 4, 100.0, 100.0, 98.8, 99.0);  // symbol 1 is marked at its low: -3000, maintenance 2470
    sc.market.bar(0, 5, 99.5, 100.0, 98.5, 99.0);
    sc.market.bar(1, 5, 99.5, 99.5, 99.5, 99.5);
    ScenarioResult r = sc.run();
    REQUIRE(r.count(kEntry) == 2);
    REQUIRE(r.count(kLiquidation) == 1);
    const FillRecord& liquidation = r.fills[2];
    CHECK(liquidation.reason == kLiquidation);
    CHECK(liquidation.symbol == 0);
    CHECK(liquidation.bar == 5);
    // B = cash 10,000 + symbol 1's cushion at its mark (-3000 - 2470) = 4,530:
    // LP = (4530 - 250000) / (-2475) = 99.1798, reached by the low of 98.5, not by the open of 99.5.
    CHECK(liquidation.price == 245470.0 / 2475.0);
    CHECK(near(liquidation.cash_after, 5470.0));  // the fee took symbol 0's maintenance margin
    // Symbol 1 stays: alone on 5,470 at 99.5 its margin balance 4,220 is above its maintenance 2,487.50.
    CHECK(r.metrics.n_liquidations == 1);
    CHECK(near(r.equity[5], 5470.0 + 2500.0 * (99.5 - 100.0)));
    // Without symbol 1's loss symbol 0 is not liquidated: B = 10000 - 2500 = 7500, LP 97.98.
    DefaultScenario calm = leveraged(2, 10, kCrossMargin);
    calm.cross_up(1, 2);
    calm.market.bar(0, 5, 99.5, 100.0, 98.5, 99.0);
    CHECK(calm.run().metrics.n_liquidations == 0);
}

// Note [Mark price]: the same long with a mark series for bar 4 (the other bars have none and keep the last
// price). The cross liquidation price 96.97 and the isolated 98.99 are levels of the mark; the stop's
// are the last price's.
TEST_CASE("mark price: the mark's low reaching the liquidation price liquidates where the last price does not") {
    DefaultScenario sc = leveraged(1, 10, kCrossMargin);
    sc.market.bar(0, 4, 99.5, 100.0, 97.5, 98.0);  // the last price stays above 96.97 and the stop at 96
    CHECK(sc.run().metrics.n_liquidations == 0);
    sc.market.mark(0, 4, 99.4, 99.9, 96.5);  // the mark reaches 96.97
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kLiquidation);
    CHECK(r.fills[1].bar == 4);
    CHECK(r.fills[1].price == kCrossLong);
    CHECK(near(r.metrics.final_equity, 0.0));
}

TEST_CASE("mark price: the last price reaching the liquidation price does not liquidate; its stop does exit") {
    DefaultScenario sc = leveraged(1, 10, kCrossMargin);
    sc.market.bar(0, 4, 99.5, 100.0, 95.5, 97.0);  // without a mark: liquidated at 96.97 (the first case above)
    sc.market.mark(0, 4, 99.5, 100.0, 97.5);       // the mark stays above it
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kStopLoss);
    CHECK(r.fills[1].price == 96.0);
    CHECK(r.metrics.n_liquidations == 0);
}

TEST_CASE("mark price: a mark that opens through the liquidation price liquidates at the mark's open") {
    DefaultScenario sc = leveraged(1, 10, kCrossMargin);
    sc.market.bar(0, 4, 99.5, 100.0, 97.5, 98.0);
    sc.market.mark(0, 4, 96.5, 97.0, 96.0);
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kLiquidation);
    CHECK(r.fills[1].price == 96.5);
    CHECK(r.fills[1].realized_pnl == quantize(2500.0 * (96.5 - 100.0)));
}

TEST_CASE("mark price: against the stop, the distances from each series' open decide (the bar's basis)") {
    // Isolated (98.99) with the stop at 98 (risk 0.5 on 2 ATR: 2500 units again); bar 4 opens at 101 and
    // falls to 96, reaching both. Without a mark the liquidation price, above the stop, comes first.
    DefaultScenario sc = leveraged(1, 10, kIsolatedMargin);
    sc.params.risk_per_trade = 0.5;
    sc.params.sl_atr = 2.0;
    sc.market.bar(0, 4, 101.0, 101.5, 96.0, 97.0);
    ScenarioResult last = sc.run();
    REQUIRE(last.fills.size() == 2);
    CHECK(last.fills[1].reason == kLiquidation);
    CHECK(last.fills[1].price == kIsolatedLong);
    // A mark 1.5 above the last price at the open reaches 98.99 3.51 below its open, the stop is 3 below
    // the last open: the stop first (98.99 against the stop shifted to 99.5).
    sc.market.mark(0, 4, 102.5, 103.0, 97.5);
    ScenarioResult above = sc.run();
    REQUIRE(above.fills.size() == 2);
    CHECK(above.fills[1].reason == kStopLoss);
    CHECK(above.fills[1].price == 98.0);
    // 1.5 below: 98.99 is 0.51 below the mark's open, the liquidation first, at the mark's price.
    sc.market.mark(0, 4, 99.5, 100.0, 94.5);
    ScenarioResult below = sc.run();
    REQUIRE(below.fills.size() == 2);
    CHECK(below.fills[1].reason == kLiquidation);
    CHECK(below.fills[1].price == kIsolatedLong);
}
