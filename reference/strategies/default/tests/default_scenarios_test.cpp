// One scenario per rule of SPEC §6, on hand-made bars and hand-set indicator
// series (the indicators have their own tests). Prices are chosen so every
// expected fill can be worked out by hand: entries at 100, ATR 1, no fees.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include "reference/strategies/default/tests/default_scenario.h"

using namespace btforge;
using namespace btforge::testing;

TEST_CASE("an entry decided at a close fills at the next open, sized by risk") {
    DefaultScenario sc(1, 10);
    sc.cross_up(0, 2);
    sc.market.bar(0, 3, 100.0, 100.5, 99.5, 100.0);
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[0].reason == kEntry);
    CHECK(r.fills[0].bar == 3);
    CHECK(r.fills[0].price == 100.0);
    CHECK(r.fills[0].qty == 50.0);
    CHECK(r.fills[1].reason == kEndOfData);
    CHECK(r.metrics.n_trades == 1);
}

TEST_CASE("a gap through the stop fills at the open") {
    DefaultScenario sc(1, 10);
    sc.cross_up(0, 2);
    sc.market.bar(0, 4, 97.0, 97.5, 96.0, 97.0);
    ScenarioResult r = sc.run();
    REQUIRE(r.count(kStopGap) == 1);
    const FillRecord& exit = r.fills[1];
    CHECK(exit.reason == kStopGap);
    CHECK(exit.bar == 4);
    CHECK(exit.price == 97.0);  // not the stop at 98
    CHECK(exit.realized_pnl == -150.0);
    CHECK(r.metrics.final_equity == 9850.0);
}

TEST_CASE("with the stop and a target inside one bar, the stop wins") {
    DefaultScenario sc(1, 10);
    sc.cross_up(0, 2);
    sc.market.bar(0, 4, 100.0, 107.0, 97.0, 104.0);  // reaches 98 (stop), 103 (TP1) and 106 (TP)
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kStopLoss);
    CHECK(r.fills[1].price == 98.0);
    CHECK(r.count(kPartialTarget) == 0);
    CHECK(r.count(kTarget) == 0);
}

TEST_CASE("TP1 closes part, moves the stop to break-even; the rest stops there") {
    DefaultScenario sc(1, 10);
    sc.cross_up(0, 2);
    sc.market.bar(0, 4, 100.0, 103.5, 99.5, 103.0);
    sc.market.bar(0, 5, 101.0, 101.5, 99.9, 100.5);
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 3);
    CHECK(r.fills[1].reason == kPartialTarget);
    CHECK(r.fills[1].price == 103.0);
    CHECK(r.fills[1].qty == 25.0);
    CHECK(r.fills[2].reason == kStopLoss);
    CHECK(r.fills[2].price == 100.0);  // break-even
    CHECK(r.fills[2].qty == 25.0);
    CHECK(r.metrics.n_trades == 1);  // the partial belongs to its trade
    CHECK(r.metrics.final_equity == 10075.0);
}

TEST_CASE("a partial close whose remainder is below min_qty closes everything") {
    DefaultScenario sc(1, 10);
    sc.market.min_qty = 30.0;  // 50 units: closing 25 would leave 25 < 30
    sc.cross_up(0, 2);
    sc.market.bar(0, 4, 100.0, 103.5, 99.5, 103.0);
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kPartialTarget);
    CHECK(r.fills[1].qty == 50.0);
    CHECK(r.metrics.n_trades == 1);
    CHECK(r.metrics.final_equity == 10150.0);
}

TEST_CASE("the final target closes the rest at the target, as a maker") {
    DefaultScenario sc(1, 10);
    sc.account.maker_fee = 0.001;
    sc.cross_up(0, 2);
    sc.market.bar(0, 4, 100.0, 103.5, 99.5, 103.0);  // TP1: 25 at 103
    sc.market.bar(0, 5, 104.0, 106.5, 103.5, 106.0);  // TP: 25 at 106
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 3);
    CHECK(r.fills[2].reason == kTarget);
    CHECK(r.fills[2].price == 106.0);
    CHECK(r.fills[2].fee == quantize(25 * 106.0 * 0.001));  // Note [Accounting quantum]
}

TEST_CASE("trailing activates after the bar's exits and acts from the next bar") {
    DefaultScenario sc(1, 10);
    sc.params.trail_activate_atr = 2.0;
    sc.params.trail_atr = 1.0;
    sc.params.tp1_atr = 50.0;
    sc.params.tp_atr = 60.0;
    sc.cross_up(0, 2);
    sc.market.bar(0, 4, 100.0, 103.0, 100.0, 102.5);  // best 103 -> stop 102; the low of 100 cannot hit it yet
    sc.market.bar(0, 5, 102.5, 102.8, 101.5, 102.0);  // now it does
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kStopLoss);
    CHECK(r.fills[1].bar == 5);
    CHECK(r.fills[1].price == 102.0);
}

TEST_CASE("funding: a long pays a positive rate, a short receives it") {
    for (int side : {+1, -1}) {
        CAPTURE(side);
        DefaultScenario sc(1, 10);
        if (side > 0) {
            sc.cross_up(0, 2);
        } else {
            sc.fast_from(0, 0, 101.0);
            sc.cross_down(0, 2);
        }
        std::size_t i = sc.market.at(0, 5);
        sc.market.funding_events[i] = 2;  // a bar that settles two funding times
        sc.market.funding_rate[i] = 0.001;
        ScenarioResult r = sc.run();
        REQUIRE(r.fills.size() == 2);
        CHECK(r.metrics.funding_paid == side * 2 * 50 * 100.0 * 0.001);
        CHECK(r.metrics.final_equity == 10000.0 - side * 10.0);
        // Note [Funding in the fill log]: two settlements at bar 5, between the entry and the exit.
        REQUIRE(r.funding.size() == 2);
        for (std::size_t k = 0; k < 2; ++k) {
            CHECK(r.funding[k].bar == 5);
            CHECK(r.funding[k].trade_index == 0);
            CHECK(r.funding[k].trade_dir == side);
            CHECK(r.funding[k].qty == 50.0);
            CHECK(r.funding[k].funding == side * 5.0);
            CHECK(r.funding[k].cash_after == r.fills[0].cash_after - static_cast<double>(k + 1) * side * 5.0);
        }
    }
}

TEST_CASE("no entry within cooldown_bars of the last exit") {
    DefaultScenario sc(1, 30);
    sc.params.cooldown_bars = 5;
    sc.cross_up(0, 2);
    sc.market.bar(0, 4, 97.0, 97.5, 96.0, 97.0);  // stopped out at bar 4
    sc.cross_down(0, 5);
    sc.cross_up(0, 6);   // 6 - 4 = 2 <= 5: ignored
    sc.cross_down(0, 8);
    sc.cross_up(0, 10);  // 10 - 4 = 6 > 5: taken, fills at 11
    ScenarioResult r = sc.run();
    REQUIRE(r.count(kEntry) == 2);
    CHECK(r.fills[2].reason == kEntry);
    CHECK(r.fills[2].bar == 11);
}

TEST_CASE("max_positions counts open and pending positions across symbols") {
    DefaultScenario sc(3, 10);
    sc.params.max_positions = 2;
    sc.cross_up(0, 2);
    sc.cross_up(1, 2);
    sc.cross_up(2, 2);
    ScenarioResult r = sc.run();
    REQUIRE(r.count(kEntry) == 2);
    CHECK(r.fills[0].symbol == 0);
    CHECK(r.fills[1].symbol == 1);
}

TEST_CASE("an entry is skipped when its margin would exceed the equity") {
    DefaultScenario sc(2, 10);
    sc.params.max_leverage = 1.0;
    sc.params.risk_per_trade = 0.03;  // 150 units wanted, capped at 1 * 10000 / 100 = 100
    sc.cross_up(0, 2);
    sc.cross_up(1, 2);
    ScenarioResult r = sc.run();
    REQUIRE(r.count(kEntry) == 1);  // the first takes all 10000 of margin; the second would need 10000 more
    CHECK(r.fills[0].symbol == 0);
    CHECK(r.fills[0].qty == 100.0);
}

TEST_CASE("an opposite signal closes at the next open") {
    DefaultScenario sc(1, 12);
    sc.params.allow_short = 0;
    sc.cross_up(0, 2);
    sc.cross_down(0, 6);
    sc.market.bar(0, 7, 100.7, 101.0, 100.2, 100.5);
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[1].reason == kSignalExit);
    CHECK(r.fills[1].bar == 7);
    CHECK(r.fills[1].price == 100.7);
}

TEST_CASE("shorts are gated by allow_short") {
    DefaultScenario sc(1, 10);
    sc.params.allow_short = 0;
    sc.fast_from(0, 0, 101.0);
    sc.cross_down(0, 2);
    CHECK(sc.run().fills.empty());
    sc.params.allow_short = 1;
    ScenarioResult r = sc.run();
    REQUIRE(!r.fills.empty());
    CHECK(r.fills[0].trade_dir == -1);
}

TEST_CASE("max_hold_bars closes at the close") {
    DefaultScenario sc(1, 12);
    sc.params.max_hold_bars = 3;
    sc.cross_up(0, 2);
    sc.market.bar(0, 6, 100.0, 101.0, 99.5, 100.8);
    ScenarioResult r = sc.run();
    REQUIRE(r.fills.size() >= 2);
    CHECK(r.fills[1].reason == kMaxHold);
    CHECK(r.fills[1].bar == 6);  // entered at 3, held 3 bars
    CHECK(r.fills[1].price == 100.8);
}

TEST_CASE("every position is closed at the last close") {
    DefaultScenario sc(2, 8);
    sc.cross_up(0, 2);
    sc.cross_up(1, 3);
    sc.market.bar(0, 7, 100.0, 101.5, 99.5, 101.0);
    sc.market.bar(1, 7, 100.0, 100.5, 99.5, 99.5);
    ScenarioResult r = sc.run();
    REQUIRE(r.count(kEndOfData) == 2);
    CHECK(r.metrics.n_trades == 2);
    CHECK(r.metrics.final_equity == 10000.0 + 50.0 - 25.0);
    CHECK(r.equity.back() == r.metrics.final_equity);
}

TEST_CASE("mean-reversion mode enters below the lower band when RSI is oversold") {
    DefaultScenario sc(1, 10);
    sc.params.mode = 1;
    std::size_t i = sc.market.at(0, 3);
    sc.market.bar(0, 3, 100.0, 100.0, 89.0, 89.5);  // close below the lower band of 90
    sc.rsi[i] = 20.0;
    ScenarioResult r = sc.run();
    REQUIRE(!r.fills.empty());
    CHECK(r.fills[0].reason == kEntry);
    CHECK(r.fills[0].trade_dir == 1);
    CHECK(r.fills[0].bar == 4);
}

TEST_CASE("a symbol without a bar does nothing; its pending entry waits for its next bar") {
    DefaultScenario sc(1, 10);
    sc.cross_up(0, 2);
    sc.market.tradable[sc.market.at(0, 3)] = 0;
    ScenarioResult r = sc.run();
    REQUIRE(!r.fills.empty());
    CHECK(r.fills[0].bar == 4);
}

// Note [Signals that cannot fire]: a clear bit must mean entry_signal is 0,
// and a set bit a tradable symbol. Values are drawn from a small set with
// ties and NaN so that every comparison (>, <, >=, <= against an equal or a
// NaN value) comes up, in both modes, on tradable and untradable bars.
TEST_CASE("symbols_that_may_signal: a clear bit means no signal, in both modes") {
    const int symbols = 5;
    const int bars = 400;
    DefaultScenario sc(symbols, bars);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double levels[] = {95.0, 99.0, 100.0, 101.0, 105.0, nan};
    const double rsis[] = {20.0, 50.0, 80.0, nan};
    const double breadths[] = {0.2, 0.5, 0.8, nan};
    std::uint64_t state = 0x9e3779b97f4a7c15ULL;
    auto draw = [&state](int n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(n));
    };
    for (std::size_t k = 0; k < sc.ema_fast.size(); ++k) {
        sc.ema_fast[k] = levels[draw(6)];
        sc.ema_slow[k] = levels[draw(6)];
        sc.bb_upper[k] = levels[draw(6)];
        sc.bb_lower[k] = levels[draw(6)];
        sc.market.close[k] = levels[draw(6)];
        sc.rsi[k] = rsis[draw(4)];
        sc.adx[k] = levels[draw(6)];
        sc.breadth[k] = breadths[draw(4)];
        sc.market.tradable[k] = draw(5) == 0 ? 0 : 1;
    }
    sc.params.adx_min = 100.0;
    sc.params.rsi_max_long = 60.0;
    sc.params.rsi_min_short = 40.0;
    sc.params.breadth_min = 0.4;
    DefaultSeries series{sc.ema_fast.data(), sc.ema_slow.data(), sc.rsi.data(),      sc.adx.data(),
                         sc.atr.data(),      sc.bb_upper.data(), sc.bb_lower.data(), sc.breadth.data()};
    MarketView view = sc.market.view();
    for (int mode = 0; mode < 2; ++mode) {
        sc.params.mode = mode;
        int signals = 0;
        int set_bits = 0;
        for (int t = 0; t < bars; ++t) {
            SymbolSet may = symbols_that_may_signal(view, series, sc.params, t);
            for (int s = symbols; s < symbol_words(symbols) * kSymbolWordBits; ++s) CHECK(symbol_set_has(may, s) == 0);
            for (int s = 0; s < symbols; ++s) {
                int i = market_index(view, s, t);
                int prev = t > 0 ? i - 1 : i;
                int signal = entry_signal(series, sc.params, i, prev, view.close[i]);
                bool bit = symbol_set_has(may, s) != 0;
                INFO("mode " << mode << ", bar " << t << ", symbol " << s);
                if (!bit && view.tradable[i] != 0) CHECK(signal == 0);
                if (bit) CHECK(view.tradable[i] != 0);
                signals += signal != 0 && view.tradable[i] != 0;
                set_bits += bit;
            }
        }
        // The draw reaches both answers often, so the checks above test something.
        CHECK(signals > 20);
        CHECK(set_bits > signals);
    }
}
