// Note [Checking mark prices], case by case: a market of three hourly bars
// of symbol A and a mark file beside it, each case changing one thing.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "host/data/data_error.h"
#include "host/data/mark_prices.h"
#include "host/data/market_builder.h"
#include "host/data/market_window.h"
#include "host/data/synthetic_market.h"

using namespace btforge;

namespace {

constexpr std::int64_t kHour = 3'600'000;

Market market_of(std::vector<SymbolBars> symbols) { return build_market(std::move(symbols)); }

Market hours() {
    return market_of({{"A",
                       Instrument{},
                       {{0, 100.0, 103.0, 98.0, 101.0, 1.0, 0.0},
                        {kHour, 101.0, 102.0, 100.0, 100.5, 1.0, 0.0},
                        {2 * kHour, 100.5, 101.0, 99.0, 100.0, 1.0, 0.0}}}});
}

}  // namespace

TEST_CASE("attach_mark_prices: each bar takes its mark bar; a bar without one keeps the last price, counted") {
    Market market = hours();
    const Market mark = market_of({{"A",
                                    Instrument{},
                                    {{0, 100.2, 103.1, 97.9, 101.1, 0.0, 0.0},
                                     {2 * kHour, 100.4, 100.9, 98.5, 99.9, 0.0, 0.0},
                                     {3 * kHour, 99.9, 100.0, 99.0, 99.5, 0.0, 0.0}}}});  // after the market: unread
    const MarkPricesUse use = attach_mark_prices(market, mark, "mark.csv");
    CHECK(use.bars == 3);
    CHECK(use.with_mark == 2);
    CHECK(use.missing == 1);
    const MarketView v = market.view();
    REQUIRE(v.mark_open != nullptr);
    CHECK(v.mark_open[0] == 100.2);
    CHECK(v.mark_high[0] == 103.1);
    CHECK(v.mark_low[0] == 97.9);
    CHECK(v.mark_open[1] == 101.0);  // no mark bar at 01:00: the last price's own
    CHECK(v.mark_high[1] == 102.0);
    CHECK(v.mark_low[1] == 100.0);
    CHECK(v.mark_low[2] == 98.5);
    // A window's view starts its marks at its first bar (Note [Market windows]).
    const MarketView second = window_view(v, MarketWindow{2, 1});
    CHECK(second.mark_open[0] == 100.4);
    CHECK(describe_mark_prices(&use, "mark.csv") ==
          "mark price from mark.csv (1-hour bars): 2 of 3 bars have their mark bar; 1 lack one (those keep the "
          "last price)");
    CHECK(hours().view().mark_open == nullptr);  // none given: liquidation reads the last price
}

TEST_CASE("attach_mark_prices: a file of another length, another symbol or other dates is refused") {
    struct Case {
        const char* what;
        std::vector<SymbolBars> mark;
        const char* rule;
        const char* says;
    };
    const std::vector<Case> cases = {
        {"15-minute marks",
         {{"A", Instrument{}, {{0, 100.0, 100.5, 99.5, 100.0, 0.0, 0.0}, {900'000, 100.0, 100.5, 99.5, 100.0, 0.0, 0.0}}}},
         "mark-bar-length",
         "its bars are 15-minute long, the market's 1-hour"},
        {"a symbol the market lacks",
         {{"A", Instrument{}, {{0, 100.0, 103.0, 98.0, 101.0, 0.0, 0.0}, {kHour, 101.0, 102.0, 100.0, 100.5, 0.0, 0.0}}},
          {"B", Instrument{}, {{0, 100.0, 103.0, 98.0, 101.0, 0.0, 0.0}, {kHour, 101.0, 102.0, 100.0, 100.5, 0.0, 0.0}}}},
         "mark-unknown-symbol",
         "symbol B is not in the market"},
        {"other dates",
         {{"A",
           Instrument{},
           {{10 * kHour, 100.0, 103.0, 98.0, 101.0, 0.0, 0.0}, {11 * kHour, 101.0, 102.0, 100.0, 100.5, 0.0, 0.0}}}},
         "mark-disjoint",
         "none of the market's 3 bars has its mark bar here"},
    };
    for (const Case& c : cases) {
        CAPTURE(std::string(c.what));
        Market market = hours();
        try {
            attach_mark_prices(market, market_of(c.mark), "mark.csv");
            FAIL("accepted");
        } catch (const DataError& e) {
            CHECK(e.rule() == c.rule);
            CHECK(e.file() == "mark.csv");
            CHECK(e.message().find(c.says) != std::string::npos);
        }
        CHECK(market.mark.open.empty());
    }
}

TEST_CASE("synthetic mark prices: on the tick, ranges that hold their open and close, one bar in N without") {
    SyntheticMarketOptions options;
    options.n_symbols = 2;
    options.n_bars = 2000;
    Market market = make_synthetic_market(options);
    const Market mark = make_synthetic_mark_bars(market, 7, 25);
    const MarkPricesUse use = attach_mark_prices(market, mark, "synthetic");
    CHECK(use.missing > use.bars / 50);
    CHECK(use.missing < use.bars / 12);
    std::size_t moved = 0;
    for (std::size_t i = 0; i < market.open.size(); ++i) {
        if (market.tradable[i] == 0) continue;
        CHECK(market.mark.low[i] <= market.mark.open[i]);
        CHECK(market.mark.open[i] <= market.mark.high[i]);
        CHECK(market.mark.low[i] > 0.0);
        if (market.mark.open[i] != market.open[i]) moved += 1;
        CHECK(std::abs(market.mark.open[i] / market.open[i] - 1.0) < 0.01);
    }
    CHECK(moved > use.bars / 2);
}
