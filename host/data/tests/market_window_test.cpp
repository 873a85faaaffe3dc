// select_window and window_view (Note [Market windows]): a table of the
// bounds a user can give, against a market of four hourly bars.
#include <doctest/doctest.h>

#include <optional>

#include "host/data/market_window.h"
#include "host/data/synthetic_market.h"

namespace btforge {
namespace {

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kStart = 1'704'067'200'000;  // 2024-01-01T00:00:00Z, bar 0

Market four_hourly_bars() {
    return make_synthetic_market(SyntheticMarketOptions{.seed = 3, .n_symbols = 2, .n_bars = 4, .bar_ms = kHour,
                                                        .start_ms = kStart});
}

struct WindowCase {
    const char* what;
    std::optional<std::int64_t> from;
    std::optional<std::int64_t> to;
    int first_bar;  // -1: refused
    int n_bars;
};

TEST_CASE("select_window: bars with from <= timestamp < to") {
    const Market market = four_hourly_bars();
    REQUIRE(market.timestamp_ms.front() == kStart);
    const WindowCase cases[] = {
        {"no bounds: every bar", std::nullopt, std::nullopt, 0, 4},
        {"from on a bar includes it", kStart + kHour, std::nullopt, 1, 3},
        {"from between bars starts at the next", kStart + kHour / 2, std::nullopt, 1, 3},
        {"from before the first bar", kStart - 10 * kHour, std::nullopt, 0, 4},
        {"to on a bar excludes it", std::nullopt, kStart + 2 * kHour, 0, 2},
        {"to between bars keeps the bar before", std::nullopt, kStart + 2 * kHour + 1, 0, 3},
        {"to after the last bar", std::nullopt, kStart + 100 * kHour, 0, 4},
        {"one bar", kStart + 3 * kHour, kStart + 4 * kHour, 3, 1},
        {"from after the last bar: no bar", kStart + 4 * kHour, std::nullopt, -1, 0},
        {"to at the first bar: no bar", std::nullopt, kStart, -1, 0},
        {"from and to between the same two bars: no bar", kStart + 1, kStart + 2, -1, 0},
        {"from equal to to", kStart + kHour, kStart + kHour, -1, 0},
        {"from after to", kStart + 2 * kHour, kStart + kHour, -1, 0},
    };
    for (const WindowCase& c : cases) {
        CAPTURE(c.what);
        if (c.first_bar < 0) {
            CHECK_THROWS_AS(select_window(market, c.from, c.to), WindowError);
        } else {
            CHECK(select_window(market, c.from, c.to) == MarketWindow{c.first_bar, c.n_bars});
        }
    }
}

TEST_CASE("a window that holds no bar names the market's span") {
    const Market market = four_hourly_bars();
    try {
        select_window(market, kStart + 10 * kHour, std::nullopt);
        FAIL("no WindowError");
    } catch (const WindowError& e) {
        const std::string message = e.what();
        CHECK(message.find("holds no bar") != std::string::npos);
        CHECK(message.find("2024-01-01T00:00:00.000Z to 2024-01-01T03:00:00.000Z") != std::string::npos);
    }
}

TEST_CASE("window_view moves every per-bar array to the first bar and keeps the row length") {
    const Market market = four_hourly_bars();
    const MarketView whole = market.view();
    CHECK(whole.bar_stride == 4);
    const MarketView v = window_view(whole, MarketWindow{1, 2});
    CHECK(v.n_bars == 2);
    CHECK(v.bar_stride == 4);
    CHECK(v.n_symbols == 2);
    for (int s = 0; s < 2; ++s) {
        for (int t = 0; t < 2; ++t) {
            const int i = market_index(v, s, t);
            const std::size_t j = market.index(s, t + 1);
            CHECK(v.open[i] == market.open[j]);
            CHECK(v.high[i] == market.high[j]);
            CHECK(v.low[i] == market.low[j]);
            CHECK(v.close[i] == market.close[j]);
            CHECK(v.volume[i] == market.volume[j]);
            CHECK(v.funding_rate[i] == market.funding_rate[j]);
            CHECK(v.funding_events[i] == market.funding_events[j]);
            CHECK(v.tradable[i] == market.tradable[j]);
        }
        CHECK(v.qty_step[s] == whole.qty_step[s]);
        CHECK(v.min_qty[s] == whole.min_qty[s]);
        CHECK(v.price_tick[s] == whole.price_tick[s]);
    }
    CHECK(v.timestamp_ms[0] == kStart + kHour);
    CHECK(window_view(whole, whole_market(market)).open == whole.open);
    CHECK_THROWS_AS(window_view(whole, MarketWindow{3, 2}), std::out_of_range);
    CHECK_THROWS_AS(window_view(whole, MarketWindow{-1, 2}), std::out_of_range);
}

TEST_CASE("describe_window states the warm-up bars") {
    const Market market = four_hourly_bars();
    CHECK(describe_window(market, MarketWindow{1, 2}) ==
          "2024-01-01T01:00:00.000Z .. 2024-01-01T02:00:00.000Z (bars 1..2 of 4: 2 bars; indicators warmed up on "
          "the 1 bars before it)");
}

}  // namespace
}  // namespace btforge
