// Note [A bar as three legs], worked by hand: the bracket of
// default_finer_bars_test.cpp (a long, or short, entered at 100 on bar 3,
// ATR 1, stop 98 (102), TP1 103 (97) closing half, TP 106 (94), no fees),
// with bar 4 walked as its three legs: the favourable extreme first (+1),
// then the adverse one first (-1). Each row names bar 4's fills under
// both orders.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "reference/strategies/default/tests/default_scenario.h"

using namespace btforge;
using namespace btforge::testing;

namespace {

struct Fill {
    int reason;
    double price;
};

struct Row {
    const char* what;
    int side;
    bool trailing;
    double open, high, low, close;   // bar 4
    std::vector<Fill> favourable;    // fills with the favourable extreme first
    std::vector<Fill> adverse;       // with the adverse extreme first
    int walked;                      // magnified_bars: 1 where bar 4 needs its path
};

const std::vector<Row>& rows() {
    static const std::vector<Row> kRows = {
        {"long, the stop and TP1: TP1 then the break-even stop; or the stop", 1, false, 100.0, 103.5, 97.0, 100.0,
         {{kPartialTarget, 103.0}, {kStopLoss, 100.0}}, {{kStopLoss, 98.0}}, 1},
        // TP1 and TP on the first leg: one exit per leg keeps TP for the
        // pause at the high, where it fills at its level (the price passed
        // 106 on the way to 107), before the way down reaches the stop.
        {"long, the stop, TP1 and TP: TP at its level at the high's pause, not at 107", 1, false, 100.0, 107.0, 97.0, 104.0,
         {{kPartialTarget, 103.0}, {kTarget, 106.0}}, {{kStopLoss, 98.0}}, 1},
        {"short, the stop and TP1", -1, false, 100.0, 103.0, 96.5, 100.0,
         {{kPartialTarget, 97.0}, {kStopLoss, 100.0}}, {{kStopLoss, 102.0}}, 1},
        {"short, the stop, TP1 and TP: TP at 94", -1, false, 100.0, 103.0, 93.0, 96.0,
         {{kPartialTarget, 97.0}, {kTarget, 94.0}}, {{kStopLoss, 102.0}}, 1},
        // Trailing 1 ATR behind the best price once 2 ATR in profit: the
        // high lifts the stop to 102. Up first, the way down reaches it;
        // down first (to the open), the way from the high ends at 102.5.
        {"long, a trailing lift and a low below it", 1, true, 100.0, 103.0, 100.0, 102.5,
         {{kStopLoss, 102.0}}, {}, 1},
        // Nothing adverse: not a bar that needs a path, settled as without legs.
        {"long, TP1 and TP, nothing adverse: TP1 only, as the bar's rule", 1, false, 100.5, 107.0, 100.5, 106.0,
         {{kPartialTarget, 103.0}}, {{kPartialTarget, 103.0}}, 0},
    };
    return kRows;
}

std::vector<Fill> bar_4_fills(const Row& row, int legs) {
    DefaultScenario sc(1, 8);
    sc.bracket_from_bar_3(row.side, row.trailing);
    sc.market.bar(0, 4, row.open, row.high, row.low, row.close);
    for (int t = 5; t < 8; ++t) sc.market.bar(0, t, row.close, row.close, row.close, row.close);
    sc.market.fine_legs = legs;
    ScenarioResult r = sc.run();
    REQUIRE(!r.fills.empty());
    CHECK(r.fills[0].bar == 3);
    CHECK(r.metrics.ambiguous_bars == 0);
    CHECK(r.metrics.magnified_bars == row.walked);
    std::vector<Fill> fills;
    for (const FillRecord& f : r.fills) {
        if (f.bar == 4) fills.push_back({f.reason, f.price});
    }
    return fills;
}

void check_fills(const std::vector<Fill>& got, const std::vector<Fill>& expected) {
    REQUIRE(got.size() == expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        CAPTURE(k);
        CHECK(got[k].reason == expected[k].reason);
        CHECK(got[k].price == expected[k].price);
    }
}

}  // namespace

TEST_CASE("a bar as three legs: the favourable and the adverse extreme first, row by row") {
    for (const Row& row : rows()) {
        CAPTURE(std::string(row.what));
        {
            INFO("favourable extreme first");
            check_fills(bar_4_fills(row, 1), row.favourable);
        }
        {
            INFO("adverse extreme first");
            check_fills(bar_4_fills(row, -1), row.adverse);
        }
    }
}

TEST_CASE("a bar as three legs: the isolated liquidation against TP1") {
    // DefaultScenario::isolated_long_liquidated_at_98_99; the bar 100 /
    // 103.5 / 98.5 / 100 reaches the liquidation (98.99) and TP1 (103).
    for (int legs : {1, -1}) {
        CAPTURE(legs);
        DefaultScenario sc(1, 8);
        sc.isolated_long_liquidated_at_98_99();
        sc.market.bar(0, 4, 100.0, 103.5, 98.5, 100.0);
        sc.market.fine_legs = legs;
        ScenarioResult r = sc.run();
        std::vector<int> at_bar_4;
        for (const FillRecord& f : r.fills) {
            if (f.bar == 4) at_bar_4.push_back(f.reason);
        }
        // Up first: TP1, then the break-even stop at 100 before the liquidation on the way down.
        CHECK(at_bar_4 == (legs > 0 ? std::vector<int>{kPartialTarget, kStopLoss} : std::vector<int>{kLiquidation}));
        CHECK(r.metrics.magnified_bars == 1);
    }
}
