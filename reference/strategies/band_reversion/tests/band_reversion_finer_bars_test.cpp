// Note [Walking the finer bars of a stop entry], worked by hand on the
// market of band_reversion_scenario.h in breakout mode: the close of 103 on
// bar 2 rests a buy stop at 102 + 0.5 * 2 = 103 (a sell stop at 97 after a
// close of 97); filled, its stop is 2 ATR = 4 from the fill's quote. Bar 3
// is the row's bar, given a path of four finer bars that agrees with it
// (first open, highest high, lowest low, last close), or walked as its legs
// (Note [A bar as three legs]). Each row names bar 3's fills.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "reference/strategies/band_reversion/tests/band_reversion_scenario.h"

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
    int side;                 // the order's
    std::vector<Finer> path;  // bar 3 is their open, highest high, lowest low, last close
    int legs;                 // 0: the path; +1/-1: bar 3's legs instead (Note [A bar as three legs])
    bool has_path;            // false: bar 3 has no path (fine_path 0)
    std::vector<Fill> fills;  // bar 3's
    int ambiguous;            // ambiguous_bars of the run
    int magnified;            // magnified_bars: 1 where bar 3 was walked
};

// The bar 98.5 / 103.5 / 98 / 100 fills the buy stop at 103 inside it and
// reaches its stop at 99: by its own prices, stopped (reading 4).
const std::vector<Finer> kFillThenLow = {
    {98.5, 103.5, 98.5, 103.2}, {103.2, 103.2, 98.0, 98.5}, {98.5, 100.0, 98.5, 99.8}, {99.8, 100.0, 99.8, 100.0}};
const std::vector<Finer> kLowThenFill = {
    {98.5, 98.5, 98.0, 99.5}, {99.5, 103.5, 99.5, 103.0}, {103.0, 103.0, 100.0, 100.2}, {100.2, 100.2, 100.0, 100.0}};

const std::vector<Row>& rows() {
    static const std::vector<Row> kRows = {
        {"the fill, then the low: stopped at 99 on the next finer bar", 1, kFillThenLow, 0, true,
         {{kRestingEntry, 103.0}, {kStopLoss, 99.0}}, 0, 1},
        {"the low, then the fill: the stop out of reach after it; it stays", 1, kLowThenFill, 0, true,
         {{kRestingEntry, 103.0}}, 0, 1},
        {"without a path: the bar's own rule, stopped, and counted", 1, kFillThenLow, 0, false,
         {{kRestingEntry, 103.0}, {kStopLoss, 99.0}}, 1, 0},
        {"a finer bar that opens beyond the order fills at its open (stop 99.5)", 1,
         {{98.5, 99.0, 98.0, 98.8}, {103.5, 104.0, 103.4, 103.6}, {103.6, 103.6, 99.0, 99.2}, {99.2, 100.0, 99.2, 100.0}},
         0, true, {{kRestingEntry, 103.5}, {kStopLoss, 99.5}}, 0, 1},
        {"the fill, the rest of the bar out of reach of the stop at 99: the walk ends at the fill; it stays", 1,
         {{100.0, 100.5, 99.5, 100.2}, {100.2, 103.5, 100.2, 103.2}, {103.2, 103.4, 101.0, 101.5},
          {101.5, 101.5, 100.0, 100.0}},
         0, true, {{kRestingEntry, 103.0}}, 0, 1},
        {"the fill and its stop in one finer bar: the stop, from the fill", 1,
         {{98.5, 99.0, 98.5, 98.8}, {98.8, 103.5, 98.0, 99.0}, {99.0, 100.0, 99.0, 99.8}, {99.8, 100.0, 99.8, 100.0}},
         0, true, {{kRestingEntry, 103.0}, {kStopLoss, 99.0}}, 0, 1},
        {"short: the sell stop at 97 filled, then the high: stopped at 101", -1,
         {{101.5, 101.5, 96.5, 96.8}, {96.8, 102.0, 96.8, 101.5}, {101.5, 101.5, 100.0, 100.2}, {100.2, 100.2, 100.0, 100.0}},
         0, true, {{kRestingEntry, 97.0}, {kStopLoss, 101.0}}, 0, 1},
        // The legs of 98.5 / 103.5 / 98 / 100: favourable first goes up to
        // 103.5 (the fill) and down to 98 (the stop); adverse first goes down
        // to 98 first, then up (the fill), then to the close of 100.
        {"legs, favourable first: the fill on the way up, the stop on the way down", 1, kFillThenLow, 1, false,
         {{kRestingEntry, 103.0}, {kStopLoss, 99.0}}, 0, 1},
        {"legs, adverse first: the low before the fill, the close above the stop", 1, kFillThenLow, -1, false,
         {{kRestingEntry, 103.0}}, 0, 1},
    };
    return kRows;
}

BandScenario scenario(const Row& row) {
    BandScenario sc(12);
    sc.params.mode = 1;
    sc.close_at(2, row.side > 0 ? 103.0 : 97.0);
    double high = row.path.front().high, low = row.path.front().low;
    for (const Finer& f : row.path) {
        high = f.high > high ? f.high : high;
        low = f.low < low ? f.low : low;
    }
    const double close = row.path.back().close;
    sc.market.bar(0, 3, row.path.front().open, high, low, close);
    // Bar 3 closes at the middle band: a position left open exits at bar 4's open.
    for (int t = 4; t < 12; ++t) sc.market.bar(0, t, close, close, close, close);
    if (row.legs != 0) {
        sc.market.fine_legs = row.legs;
        return sc;
    }
    // Every other bar keeps a flat path of its own, so the market has finer bars throughout.
    for (int t = 0; t < 12; ++t) {
        if (t == 3) continue;
        const double o = sc.market.open[sc.market.at(0, t)];
        const double h = sc.market.high[sc.market.at(0, t)];
        const double l = sc.market.low[sc.market.at(0, t)];
        const double c = sc.market.close[sc.market.at(0, t)];
        sc.market.path(0, t, {{o, o, o, o}, {o, h, l, c}, {c, c, c, c}, {c, c, c, c}});
    }
    if (row.has_path) sc.market.path(0, 3, row.path);
    return sc;
}

}  // namespace

TEST_CASE("finer bars settle band_reversion's stop entries, row by row") {
    for (const Row& row : rows()) {
        CAPTURE(std::string(row.what));
        ScenarioResult r = scenario(row).run();
        std::vector<Fill> at_bar_3;
        for (const FillRecord& f : r.fills) {
            if (f.bar == 3) at_bar_3.push_back({f.reason, f.price});
        }
        REQUIRE(at_bar_3.size() == row.fills.size());
        for (std::size_t k = 0; k < row.fills.size(); ++k) {
            CAPTURE(k);
            CHECK(at_bar_3[k].reason == row.fills[k].reason);
            CHECK(at_bar_3[k].price == row.fills[k].price);
        }
        if (row.fills.size() == 1) {
            // Left open: bar 3 closes at the middle band, so it leaves at bar 4's open.
            REQUIRE(r.fills.size() == 2);
            CHECK(r.fills[1].bar == 4);
            CHECK(r.fills[1].reason == kSignalExit);
        }
        CHECK(r.metrics.ambiguous_bars == row.ambiguous);
        CHECK(r.metrics.magnified_bars == row.magnified);
    }
}

TEST_CASE("finer bars leave a limit entry's bar to its own prices") {
    // Fade: the close of 97 rests a buy limit at 97, stop 93; the bar 98 /
    // 98.5 / 92 / 93.5 fills it and stops it: one side, not walked.
    BandScenario sc(12);
    sc.close_at(2, 97.0);
    sc.market.bar(0, 3, 98.0, 98.5, 92.0, 93.5);
    for (int t = 0; t < 12; ++t) {
        const double o = sc.market.open[sc.market.at(0, t)];
        const double h = sc.market.high[sc.market.at(0, t)];
        const double l = sc.market.low[sc.market.at(0, t)];
        const double c = sc.market.close[sc.market.at(0, t)];
        sc.market.path(0, t, {{o, h, o, h}, {h, h, l, l}, {l, c, l, c}, {c, c, c, c}});
    }
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[0].price == 97.0);
    CHECK(r.fills[1].reason == kStopLoss);
    CHECK(r.fills[1].price == 93.0);
    CHECK(r.metrics.magnified_bars == 0);
    CHECK(r.metrics.ambiguous_bars == 0);
}

// Note [Out of reach for the rest of a bar]: the stop far away (5 ATR, at
// 93) but the position 20 times the equity, one maintenance tier of 1%: a
// long of q = 1941.747 filled at 103 is liquidated at (103 q - 10000) /
// (0.99 q) = 98.838 in cross margin, which bar 3's low of 98 reaches. The
// walk may not end at the fill: the path decides whether the low came after
// it (liquidated) or before it (it stays).
TEST_CASE("a walk goes on past the fill where the bar reaches the liquidation, even with the stop out of reach") {
    const double q = 1941.747;
    const double liquidation = (103.0 * q - 10000.0) / (0.99 * q);
    for (bool low_after_fill : {true, false}) {
        CAPTURE(low_after_fill);
        Row row{"", 1, low_after_fill ? kFillThenLow : kLowThenFill, 0, true, {}, 0, 1};
        BandScenario sc = scenario(row);
        sc.params.sl_atr = 5.0;
        sc.params.position_fraction = 20.0;
        MarginSchedule one_tier{};
        one_tier.n_tiers = 1;
        one_tier.rate[0] = 0.01;
        sc.market.margin[0] = one_tier;
        ScenarioResult r = sc.run();
        REQUIRE(r.fills.size() >= 2);
        CHECK(r.fills[0].bar == 3);
        CHECK(r.fills[0].reason == kRestingEntry);
        CHECK(r.fills[0].qty == doctest::Approx(q).epsilon(1e-12));
        if (low_after_fill) {
            CHECK(r.fills[1].bar == 3);
            CHECK(r.fills[1].reason == kLiquidation);
            CHECK(r.fills[1].price == doctest::Approx(liquidation).epsilon(1e-12));
        } else {
            CHECK(r.fills[1].bar == 4);
            CHECK(r.fills[1].reason == kSignalExit);
        }
        CHECK(r.metrics.magnified_bars == 1);
    }
}
