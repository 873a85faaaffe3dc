// Hand-worked scenarios of band_reversion: one symbol, a market flat at 100,
// bands fixed by the test at 98 / 100 / 102 and ATR 2, so every price below
// is worked from the numbers in its comment. Default case: fade (mode 0),
// orders 0.5 ATR = 1.0 beyond the band, live 3 bars, stop 2 ATR = 4.0 from
// the fill, half the equity per entry, no fees unless a case sets them.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "reference/accounting/quantize.h"
#include "reference/strategies/band_reversion/tests/band_reversion_scenario.h"

using namespace btforge;
using namespace btforge::testing;

TEST_CASE("band_reversion: a close below the lower band rests a buy limit 0.5 ATR below it; touched, it fills there") {
    BandScenario sc(12);
    sc.close_at(2, 97.0);                            // 97 < 98: buy limit at 98 - 0.5 * 2 = 97
    sc.market.bar(0, 3, 97.5, 98.0, 96.8, 97.5);     // low 96.8 reaches 97: filled at 97 (the limit)
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[0].bar == 3);
    CHECK(r.fills[0].price == 97.0);
    CHECK(r.fills[0].qty == floor_to_step(0.5 * 10000.0 / 97.0, 0.001));  // 51.546
    // Bar 4 closes at 100 = the middle band: exit at the open of bar 5.
    CHECK(r.fills[1].reason == kSignalExit);
    CHECK(r.fills[1].bar == 5);
    CHECK(r.fills[1].price == 100.0);
    CHECK(r.metrics.n_trades == 1);
    CHECK(r.metrics.n_wins == 1);
}

TEST_CASE("band_reversion: a bar opening through the limit fills at the open, the better price") {
    BandScenario sc(12);
    sc.close_at(2, 97.0);
    sc.market.bar(0, 3, 96.0, 96.5, 95.5, 96.2);  // opens at 96 <= 97
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() >= 1);
    CHECK(r.fills[0].price == 96.0);
}

TEST_CASE("band_reversion: an order lives order_bars bars, then is cancelled") {
    for (int fill_bar : {5, 6}) {
        CAPTURE(fill_bar);
        BandScenario sc(12);
        sc.close_at(2, 97.0);                                 // live on bars 3, 4, 5
        sc.market.bar(0, fill_bar, 100.0, 100.0, 96.9, 100.0);  // reaches 97 on bar 5 (last live) or 6 (gone)
        ScenarioResult r = sc.run();
        CHECK(r.count(kRestingEntry) == (fill_bar == 5 ? 1 : 0));
    }
}

TEST_CASE("band_reversion: a new signal replaces the resting order") {
    BandScenario sc(12);
    sc.close_at(2, 97.0);                          // buy limit at 97
    sc.lower[3] = 95.0;                            // the band moved down
    sc.market.bar(0, 3, 100.0, 100.0, 97.5, 94.5);  // low 97.5: no fill; close 94.5 < 95: limit at 95 - 1 = 94
    sc.market.bar(0, 4, 100.0, 100.0, 96.0, 100.0);  // would fill the old order at 97, not the new one at 94
    ScenarioResult r = sc.run();
    CHECK(r.fills.empty());
}

TEST_CASE("band_reversion: a fill inside the bar meets its stop in that bar, never a gap") {
    BandScenario sc(12);
    sc.close_at(2, 97.0);
    sc.market.bar(0, 3, 98.0, 98.5, 92.0, 93.5);  // fills at 97, stop 97 - 4 = 93; the low 92 reaches it
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[0].price == 97.0);
    CHECK(r.fills[1].bar == 3);
    CHECK(r.fills[1].reason == kStopLoss);  // at the stop, not a gap: the position did not exist at the open
    CHECK(r.fills[1].price == 93.0);
}

TEST_CASE("band_reversion: breakout mode rests a stop entry above the upper band: a taker, slipped, gap-aware") {
    struct Case {
        const char* what;
        double open, high, low, close;
        double quote;  // the fill before slippage
    };
    const Case cases[] = {
        {"touched: at the stop", 102.5, 103.5, 102.0, 103.2, 103.0},  // stop at 102 + 0.5 * 2 = 103
        {"opens through it: at the open, worse", 104.0, 105.0, 103.5, 104.5, 104.0},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        BandScenario sc(12);
        sc.params.mode = 1;
        sc.account = AccountConfig{10000.0, 0.0002, 0.0005, 0.001, 1.0, 0, kCrossMargin, 0, 0};
        sc.close_at(2, 103.0);  // 103 > 102
        sc.market.bar(0, 3, c.open, c.high, c.low, c.close);
        ScenarioResult r = sc.run();
        REQUIRE(r.fills.size() >= 1);
        double price = c.quote * (1.0 + 0.001);
        double qty = floor_to_step(0.5 * 10000.0 / price, 0.001);
        CHECK(r.fills[0].price == price);
        CHECK(r.fills[0].qty == qty);
        CHECK(r.fills[0].fee == quantize(qty * price * 0.0005));  // the taker rate
    }
}

TEST_CASE("band_reversion: a limit fill pays the maker fee and no slippage") {
    BandScenario sc(12);
    sc.account = AccountConfig{10000.0, 0.0002, 0.0005, 0.001, 1.0, 0, kCrossMargin, 0, 0};
    sc.close_at(2, 97.0);
    sc.market.bar(0, 3, 97.5, 98.0, 96.8, 97.5);
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() >= 1);
    CHECK(r.fills[0].price == 97.0);
    CHECK(r.fills[0].fee == quantize(r.fills[0].qty * 97.0 * 0.0002));
}

TEST_CASE("band_reversion: the short side mirrors, and shorts can be off") {
    for (int allow_short : {0, 1}) {
        CAPTURE(allow_short);
        BandScenario sc(12);
        sc.params.allow_short = allow_short;
        sc.close_at(2, 103.0);                         // 103 > 102: sell limit at 102 + 1 = 103
        sc.market.bar(0, 3, 102.0, 103.2, 101.5, 102.5);  // high 103.2 reaches it
        sc.market.bar(0, 4, 102.5, 107.5, 102.0, 106.0);  // stop 103 + 4 = 107, the high reaches it
        ScenarioResult r = sc.run();
        if (allow_short == 0) {
            CHECK(r.fills.empty());
            continue;
        }
        REQUIRE(r.fills.size() == 2);
        CHECK(r.fills[0].trade_dir == -1);
        CHECK(r.fills[0].price == 103.0);
        CHECK(r.fills[1].reason == kStopLoss);
        CHECK(r.fills[1].price == 107.0);
    }
}

TEST_CASE("band_reversion: an order too small to trade is spent, not kept") {
    BandScenario sc(12);
    sc.market.min_qty = 1.0;
    sc.params.position_fraction = 0.005;             // 50 / 97 = 0.515 < 1
    sc.close_at(2, 97.0);
    sc.market.bar(0, 3, 97.5, 98.0, 96.8, 99.0);     // reaches 97: refused
    sc.market.bar(0, 4, 99.0, 99.0, 96.5, 99.0);     // would reach it again: the order is gone
    ScenarioResult r = sc.run();
    CHECK(r.fills.empty());
}

TEST_CASE("band_reversion: a stop entry filled above an open that is below its own stop is stopped at the stop") {
    // Note [A fill inside the bar meets its stop in that bar]: the bar opens
    // at 98.5, below the protective stop 103 - 4 = 99 of the entry it will
    // trigger at 103; the position did not exist at the open, so the low 98
    // stops it at 99, never "through the stop" at the open 98.5.
    BandScenario sc(12);
    sc.params.mode = 1;
    sc.close_at(2, 103.0);
    sc.market.bar(0, 3, 98.5, 103.5, 98.0, 100.0);
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[0].price == 103.0);
    CHECK(r.fills[1].reason == kStopLoss);
    CHECK(r.fills[1].price == 99.0);
}

TEST_CASE("band_reversion: a position filled inside a bar did not hold that bar's funding time; held, it pays") {
    struct Case {
        const char* what;
        int funding_bar;
        bool pays;
    };
    const Case cases[] = {
        {"funding at the open of the fill's bar: not held yet", 3, false},
        {"funding at the open of the next bar: held", 4, true},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        BandScenario sc(12);
        sc.close_at(2, 97.0);
        sc.market.bar(0, 3, 97.5, 98.0, 96.8, 97.5);  // filled at 97, 51.546 long
        sc.market.funding_events[sc.market.at(0, c.funding_bar)] = 1;
        sc.market.funding_rate[sc.market.at(0, c.funding_bar)] = 0.001;
        ScenarioResult r = sc.run();
        REQUIRE(r.fills.size() == 2);
        // A long pays qty * open * rate at the settlement: 51.546 * 100 * 0.001 at bar 4's open.
        CHECK((r.metrics.funding_paid > 0.0) == c.pays);
        // Note [Funding in the fill log]: a settlement is logged where it is paid.
        REQUIRE(r.funding.size() == (c.pays ? 1u : 0u));
        if (c.pays) {
            CHECK(r.funding[0].bar == 4);
            CHECK(r.funding[0].trade_index == 0);
            CHECK(r.funding[0].funding == r.metrics.funding_paid);
        }
    }
}

TEST_CASE("band_reversion: ambiguous bars (Note [Ambiguous bars], reading 4)") {
    // Breakout: the close of 103 rests a buy stop at 103, stop 103 - 4 = 99.
    // Fade: the close of 97 rests a buy limit at 97, stop 97 - 4 = 93.
    struct Case {
        const char* what;
        int mode;
        double signal_close;
        double open, high, low, close;
        int exit_bar;
        int ambiguous;
    };
    const Case cases[] = {
        {"a stop entry filled above the open, then stopped: the low may have come first", 1, 103.0, 98.5, 103.5, 98.0,
         100.0, 3, 1},
        {"a stop entry filled above the open, its stop out of reach (leaves at bar 5's open)", 1, 103.0, 100.0, 104.0,
         99.5, 103.5, 5, 0},
        {"a stop entry filled at the open by a gap (stop 100), then stopped: one side", 1, 103.0, 104.0, 104.5, 99.0,
         100.0, 3, 0},
        {"a limit entry filled below the open, then stopped: the path meets them in order", 0, 97.0, 98.0, 98.5, 92.0,
         93.5, 3, 0},
    };
    for (const Case& c : cases) {
        CAPTURE(std::string(c.what));
        BandScenario sc(12);
        sc.params.mode = c.mode;
        sc.close_at(2, c.signal_close);
        sc.market.bar(0, 3, c.open, c.high, c.low, c.close);
        ScenarioResult r = sc.run();
        REQUIRE(r.fills.size() == 2);
        CHECK(r.fills[0].bar == 3);
        CHECK(r.fills[1].bar == c.exit_bar);
        CHECK(r.metrics.ambiguous_bars == c.ambiguous);
    }
}
