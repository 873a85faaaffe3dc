// Note [Walking the finer bars of a bracket], worked by hand: a long (or
// short) entered at 100 on bar 3, ATR 1, stop 98 (102), TP1 103 (97)
// closing half, TP 106 (94), no fees; bar 4 is the row's hour, given a path
// of four finer bars that agrees with it (first open, highest high, lowest
// low, last close). Each row names the fills the path makes in bar 4, in
// order, and what the hour's own prices would have made instead, so a row
// whose path changes nothing shows that too.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "reference/margin/default_margin_schedule.h"
#include "reference/strategies/default/tests/default_scenario.h"

using namespace btforge;
using namespace btforge::testing;

namespace {

using Finer = ScenarioMarket::Finer;

struct Fill {
    int reason;
    double price;
};

struct Row {
    const char* what;
    int side;
    bool trailing;
    std::vector<Finer> path;  // the hour is their open, highest high, lowest low, last close
    bool has_path;            // false: the bar is given no path (fine_path 0)
    std::vector<Fill> fills;  // bar 4's fills with the path
    int ambiguous;            // ambiguous_bars of the run
    int magnified;            // magnified_bars of the run: 1 where bar 4 was settled on its path
};

const std::vector<Row>& rows() {
    static const std::vector<Row> kRows = {
        // The hour 100 / 103.5 / 97 / 100 reaches the stop (98) and TP1 (103):
        // by the hour's prices the stop at 98 closes everything (reading 1).
        {"the stop and TP1, TP1 first: half at 103, the rest at the break-even stop the next finer bar",
         1, false,
         {{100.0, 103.5, 100.0, 103.2}, {103.2, 103.2, 99.0, 99.5}, {99.5, 99.5, 97.0, 98.5}, {98.5, 100.0, 98.5, 100.0}},
         true, {{kPartialTarget, 103.0}, {kStopLoss, 100.0}}, 0, 1},
        {"the stop and TP1, the stop first: as the hour's own rule", 1, false,
         {{100.0, 100.0, 97.0, 97.5}, {97.5, 103.5, 97.5, 103.0}, {103.0, 103.0, 100.0, 100.0}, {100.0, 100.0, 100.0, 100.0}},
         true, {{kStopLoss, 98.0}}, 0, 1},
        {"without a path the hour's rule settles it, and it is counted", 1, false,
         {{100.0, 103.5, 100.0, 103.2}, {103.2, 103.2, 99.0, 99.5}, {99.5, 99.5, 97.0, 98.5}, {98.5, 100.0, 98.5, 100.0}},
         false, {{kStopLoss, 98.0}}, 1, 0},
        {"a finer bar that opens through the break-even stop fills at its open", 1, false,
         {{100.0, 103.5, 100.0, 103.2}, {99.0, 99.2, 97.0, 97.5}, {97.5, 100.0, 97.5, 100.0}, {100.0, 100.0, 100.0, 100.0}},
         true, {{kPartialTarget, 103.0}, {kStopGap, 99.0}}, 0, 1},
        // The hour 100 / 107 / 97 / 104 reaches the stop, TP1 and TP.
        {"TP1 and TP in the first finer bar take TP1; TP the next, where it opens beyond it", 1, false,
         {{100.0, 107.0, 100.0, 106.5}, {106.5, 106.9, 106.0, 106.5}, {106.5, 106.5, 97.0, 97.5}, {97.5, 104.0, 97.5, 104.0}},
         true, {{kPartialTarget, 103.0}, {kTarget, 106.5}}, 0, 1},
        {"short: the stop and TP1, TP1 first", -1, false,
         {{100.0, 100.0, 96.5, 96.8}, {96.8, 101.0, 96.8, 100.5}, {100.5, 103.0, 100.5, 102.5}, {102.5, 102.5, 100.0, 100.0}},
         true, {{kPartialTarget, 97.0}, {kStopLoss, 100.0}}, 0, 1},
        // Trailing 1 ATR behind the best price once 2 ATR in profit (TP1 out
        // of the way): the hour 100 / 103 / 100 / 102.5 lifts the stop to 102
        // and reaches it (reading 2).
        {"a trailing lift, then a low that reaches it", 1, true,
         {{100.0, 103.0, 100.0, 102.8}, {102.8, 102.8, 100.0, 100.5}, {100.5, 102.5, 100.5, 102.5}, {102.5, 102.5, 102.5, 102.5}},
         true, {{kStopLoss, 102.0}}, 0, 1},
        {"the low before the lift: the position stays", 1, true,
         {{100.0, 100.2, 100.0, 100.1}, {100.1, 103.0, 100.1, 102.8}, {102.8, 102.9, 102.5, 102.6}, {102.6, 102.6, 102.5, 102.5}},
         true, {}, 0, 1},
        // TP1 and TP with nothing adverse (100.5 / 107 / 100.5 / 106): not a
        // bar that needs its path, so one exit, TP1, as the hour's rule says,
        // though the path reaches TP later.
        {"TP1 and TP, nothing adverse: the hour's own prices, TP1 only", 1, false,
         {{100.5, 103.5, 100.5, 103.2}, {103.2, 104.0, 103.0, 104.0}, {104.0, 107.0, 104.0, 106.5}, {106.5, 106.5, 106.0, 106.0}},
         true, {{kPartialTarget, 103.0}}, 0, 0},
    };
    return kRows;
}

DefaultScenario scenario(const Row& row) {
    DefaultScenario sc(1, 8);
    sc.bracket_from_bar_3(row.side, row.trailing);
    double high = row.path.front().high, low = row.path.front().low;
    for (const Finer& f : row.path) {
        high = f.high > high ? f.high : high;
        low = f.low < low ? f.low : low;
    }
    const double close = row.path.back().close;
    sc.market.bar(0, 4, row.path.front().open, high, low, close);
    for (int t = 5; t < 8; ++t) sc.market.bar(0, t, close, close, close, close);
    // Every other bar keeps a flat path of its own, so the market has finer bars throughout.
    for (int t = 0; t < 8; ++t) {
        if (t == 4) continue;
        const double p = sc.market.close[sc.market.at(0, t)];
        const double o = sc.market.open[sc.market.at(0, t)];
        sc.market.path(0, t, {{o, o, o, o}, {o, p, o, p}, {p, p, p, p}, {p, p, p, p}});
    }
    if (row.has_path) {
        sc.market.path(0, 4, row.path);
    }
    return sc;
}

}  // namespace

TEST_CASE("finer bars settle the default strategy's ambiguous bars, row by row") {
    for (const Row& row : rows()) {
        CAPTURE(std::string(row.what));
        DefaultScenario sc = scenario(row);
        ScenarioResult r = sc.run();
        REQUIRE(!r.fills.empty());
        CHECK(r.fills[0].bar == 3);
        std::vector<Fill> at_bar_4;
        for (const FillRecord& f : r.fills) {
            if (f.bar == 4) at_bar_4.push_back({f.reason, f.price});
        }
        REQUIRE(at_bar_4.size() == row.fills.size());
        for (std::size_t k = 0; k < row.fills.size(); ++k) {
            CAPTURE(k);
            CHECK(at_bar_4[k].reason == row.fills[k].reason);
            CHECK(at_bar_4[k].price == row.fills[k].price);
        }
        CHECK(r.metrics.ambiguous_bars == row.ambiguous);
        CHECK(r.metrics.magnified_bars == row.magnified);
    }
}

TEST_CASE("finer bars: an isolated liquidation inside the hour, against TP1") {
    // DefaultScenario::isolated_long_liquidated_at_98_99. The hour 100 /
    // 103.5 / 98.5 / 100 reaches the liquidation and TP1: by its own prices
    // the liquidation (reading 1).
    struct Case {
        const char* what;
        std::vector<Finer> path;
        std::vector<int> reasons;
    };
    const Case cases[] = {
        {"the liquidation first", {{100.0, 100.0, 98.5, 99.0}, {99.0, 103.5, 99.0, 103.0}, {103.0, 103.0, 100.0, 100.0}, {100.0, 100.0, 100.0, 100.0}},
         {kLiquidation}},
        {"TP1 first, then the break-even stop before the liquidation", {{100.0, 103.5, 100.0, 103.0}, {103.0, 103.0, 98.5, 99.0}, {99.0, 100.0, 99.0, 100.0}, {100.0, 100.0, 100.0, 100.0}},
         {kPartialTarget, kStopLoss}},
    };
    for (const Case& c : cases) {
        CAPTURE(std::string(c.what));
        DefaultScenario sc(1, 8);
        sc.isolated_long_liquidated_at_98_99();
        sc.market.bar(0, 4, 100.0, 103.5, 98.5, 100.0);
        sc.market.path(0, 4, c.path);
        ScenarioResult r = sc.run();
        std::vector<int> at_bar_4;
        for (const FillRecord& f : r.fills) {
            if (f.bar == 4) at_bar_4.push_back(f.reason);
        }
        CHECK(at_bar_4 == c.reasons);
        CHECK(r.metrics.ambiguous_bars == 0);
        CHECK(r.metrics.magnified_bars == 1);
    }
}
