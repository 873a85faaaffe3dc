// Note [Ambiguous bars] in the default strategy, one row per reading: a long
// (or short) entered at 100 on bar 3 (the cross of bar 2), ATR 1, stop 98
// (102), TP1 103 (97) closing half, TP 106 (94), no fees; bar 4 is the bar
// the row shapes. Where a row turns trailing on it activates 2 ATR in profit
// and trails 1 ATR behind the best price, so a high of 103 lifts the stop to
// 102 (TP1 is then moved out of the way). Each row is worked by hand: which levels the bar reaches on which
// side of its open, whether the order of its high and low decides, and what
// our rules did (the exit a row names is unchanged by counting).
#include <doctest/doctest.h>

#include <string>

#include "reference/margin/default_margin_schedule.h"
#include "reference/strategies/default/tests/default_scenario.h"

using namespace btforge;
using namespace btforge::testing;

namespace {

struct Row {
    const char* what;
    int side;
    double open, high, low, close;
    bool trailing;
    int ambiguous;    // ambiguous_bars of the run
    int exit_reason;  // the fill at bar 4 after the entry (kEndOfData: none there)
};

const Row kRows[] = {
    // Levels on one side, or a gap: the prices decide.
    {"the stop alone", 1, 100.0, 100.5, 97.0, 99.0, false, 0, kStopLoss},
    {"a gap through the stop; the targets reached later do not count", 1, 97.0, 107.0, 96.0, 104.0, false, 0, kStopGap},
    {"TP1 and TP, nothing adverse: TP1 by our one-exit rule", 1, 100.5, 107.0, 100.5, 106.0, false, 0, kPartialTarget},
    {"TP1 with the break-even stop out of the bar's reach", 1, 100.5, 103.5, 100.5, 103.0, false, 0, kPartialTarget},
    {"a trailing lift the bar cannot reach (opens at 102.5)", 1, 102.5, 103.0, 102.2, 102.8, true, 0, kEndOfData},
    // Reading 1: an adverse exit inside, a favourable event in the same bar.
    {"the stop and TP1", 1, 100.0, 103.5, 97.0, 100.0, false, 1, kStopLoss},
    {"the stop and TP", 1, 100.0, 107.0, 97.0, 104.0, false, 1, kStopLoss},
    {"the stop and a trailing lift", 1, 100.0, 103.0, 97.0, 100.0, true, 1, kStopLoss},
    {"short: the stop and TP1", -1, 100.0, 103.0, 96.5, 100.0, false, 1, kStopLoss},
    // Reading 2: no exit at the old stop, but at the level this bar lifted it to.
    {"TP1, then the break-even stop within reach", 1, 100.0, 103.5, 99.5, 103.0, false, 1, kPartialTarget},
    {"a trailing lift to 102 with a low of 100", 1, 100.0, 103.0, 100.0, 102.5, true, 1, kEndOfData},
    {"short: a trailing lift to 98.5 with a high of 100", -1, 100.0, 100.0, 97.5, 98.0, true, 1, kEndOfData},
    // Reading 3: a target exit where a trailing lift was within reach.
    {"TP with the trailing stop lifted to 106 and a low of 99", 1, 100.0, 107.0, 99.0, 105.0, true, 1, kTarget},
};

DefaultScenario scenario(const Row& row) {
    DefaultScenario sc(1, 8);
    sc.bracket_from_bar_3(row.side, row.trailing);
    sc.market.bar(0, 4, row.open, row.high, row.low, row.close);
    for (int t = 5; t < 8; ++t) sc.market.bar(0, t, row.close, row.close, row.close, row.close);
    return sc;
}

}  // namespace

TEST_CASE("ambiguous bars of the default strategy's brackets, reading by reading") {
    for (const Row& row : kRows) {
        CAPTURE(std::string(row.what));
        DefaultScenario sc = scenario(row);
        ScenarioResult r = sc.run();
        REQUIRE(r.fills.size() >= 2);
        CHECK(r.fills[0].bar == 3);
        CHECK(r.fills[1].reason == row.exit_reason);
        if (row.exit_reason != kEndOfData) CHECK(r.fills[1].bar == 4);
        CHECK(r.metrics.ambiguous_bars == row.ambiguous);
    }
}

TEST_CASE("ambiguous bars: a liquidation inside the bar counts as the stop does") {
    // DefaultScenario::isolated_long_liquidated_at_98_99.
    struct Case {
        const char* what;
        double open, high, low, close;
        int ambiguous;
        int exit_reason;
    };
    const Case cases[] = {
        {"the liquidation alone", 100.0, 100.5, 98.5, 99.0, 0, kLiquidation},
        {"the liquidation and the stop below it, one side", 100.0, 100.5, 95.0, 96.0, 0, kLiquidation},
        {"the liquidation and TP1", 100.0, 103.5, 98.5, 100.0, 1, kLiquidation},
        {"a liquidation at the open", 98.0, 104.0, 97.0, 100.0, 0, kLiquidation},
    };
    for (const Case& c : cases) {
        CAPTURE(std::string(c.what));
        DefaultScenario sc(1, 8);
        sc.isolated_long_liquidated_at_98_99();
        sc.market.bar(0, 4, c.open, c.high, c.low, c.close);
        ScenarioResult r = sc.run();
        REQUIRE(r.fills.size() >= 2);
        CHECK(r.fills[1].reason == c.exit_reason);
        CHECK(r.fills[1].bar == 4);
        CHECK(r.metrics.ambiguous_bars == c.ambiguous);
    }
}

TEST_CASE("ambiguous bars add up over symbols and bars") {
    // Two symbols, each with the stop and TP1 in bar 4 (one count each), and
    // symbol 1 entering again after it and meeting the same on bar 7.
    DefaultScenario sc(2, 10);
    sc.params.allow_short = 0;  // the cross down of symbol 1 at bar 4 opens nothing
    sc.cross_up(0, 2);
    sc.cross_up(1, 2);
    sc.market.bar(0, 4, 100.0, 103.5, 97.0, 100.0);
    sc.market.bar(1, 4, 100.0, 103.5, 97.0, 100.0);
    sc.cross_down(1, 4);
    sc.cross_up(1, 5);  // enters at bar 6's open, 100
    sc.market.bar(1, 7, 100.0, 103.5, 97.0, 100.0);
    ScenarioResult r = sc.run();
    CHECK(r.count(kStopLoss) == 3);
    CHECK(r.metrics.ambiguous_bars == 3);
}
