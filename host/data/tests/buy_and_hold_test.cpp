// Note [Buy-and-hold benchmark], worked by hand: two symbols, one that
// starts trading inside the window, and a window that starts after the
// market's first bar; daily parts (Note [Equity marks at UTC days]).
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "host/data/buy_and_hold.h"
#include "host/data/equity_mark_bars.h"
#include "host/data/market_builder.h"
#include "host/data/synthetic_market.h"
#include "reference/market/utc_days.h"

namespace btforge {
namespace {

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kStart = 1'704'067'200'000;

SymbolBars symbol_of(const char* name, int first_hour, const std::vector<double>& opens,
                     const std::vector<double>& closes) {
    SymbolBars s;
    s.symbol = name;
    s.instrument = make_synthetic_market(SyntheticMarketOptions{1, 3, 10}).instruments[2];
    for (std::size_t i = 0; i < opens.size(); ++i) {
        const double high = std::max(opens[i], closes[i]) + 1.0;
        const double low = std::min(opens[i], closes[i]) - 1.0;
        s.bars.push_back(Bar{kStart + kHour * (first_hour + static_cast<std::int64_t>(i)), opens[i], high, low,
                             closes[i], 1.0, 0.0});
    }
    return s;
}

// The marks of M equal parts, as the kernels place them.
std::vector<int> equal_parts(const Market& market, const MarketWindow& window, int parts) {
    return equity_mark_bars(market, window, parts, false);
}

Market two_symbols() {
    std::vector<SymbolBars> symbols;
    // A trades at hours 0..5; B from hour 2 to 5.
    symbols.push_back(symbol_of("AUSDT", 0, {100, 101, 102, 103, 104, 105}, {101, 102, 103, 104, 105, 106}));
    symbols.push_back(symbol_of("BUSDT", 2, {50, 60, 70, 80}, {55, 65, 75, 85}));
    return build_market(std::move(symbols));
}

TEST_CASE("worked by hand: equal shares at each symbol's first open, marked at the parts' last closes") {
    const Market market = two_symbols();
    REQUIRE(market.n_bars() == 6);
    // The whole window in 3 parts of 2 bars: marks after bars 1, 3, 5.
    // 1000 split 500 / 500. A bought at 100 (bar 0's open), B at 50 (bar 2's).
    //   mark 0 (bar 1): A 500 * 102/100 = 510, B not yet bought: 500  -> 1010
    //   mark 1 (bar 3): A 500 * 104/100 = 520, B 500 * 65/50 = 650   -> 1170
    //   mark 2 (bar 5): A 500 * 106/100 = 530, B 500 * 85/50 = 850   -> 1380
    const std::vector<double> marks =
        buy_and_hold_marks(market, whole_market(market), equal_parts(market, whole_market(market), 3), 1000.0);
    REQUIRE(marks.size() == 3);
    CHECK(marks[0] == doctest::Approx(1010.0).epsilon(1e-15));
    CHECK(marks[1] == doctest::Approx(1170.0).epsilon(1e-15));
    CHECK(marks[2] == doctest::Approx(1380.0).epsilon(1e-15));
}

TEST_CASE("a window after the first bars buys at the window's first open") {
    const Market market = two_symbols();
    // Bars 3..5 in 3 parts of 1: A bought at 103, B at 60 (bar 3's opens).
    //   bar 3: 500 * 104/103 + 500 * 65/60; bar 4: 105/103, 75/60; bar 5: 106/103, 85/60.
    const std::vector<double> marks =
        buy_and_hold_marks(market, MarketWindow{3, 3}, equal_parts(market, MarketWindow{3, 3}, 3), 1000.0);
    REQUIRE(marks.size() == 3);
    CHECK(marks[0] == doctest::Approx(500.0 * 104 / 103 + 500.0 * 65 / 60).epsilon(1e-15));
    CHECK(marks[1] == doctest::Approx(500.0 * 105 / 103 + 500.0 * 75 / 60).epsilon(1e-15));
    CHECK(marks[2] == doctest::Approx(500.0 * 106 / 103 + 500.0 * 85 / 60).epsilon(1e-15));
}

TEST_CASE("a symbol without a bar at a mark keeps its last close; parts as periods cut them") {
    std::vector<SymbolBars> symbols;
    symbols.push_back(symbol_of("AUSDT", 0, {10, 10, 10, 10, 10}, {11, 12, 13, 14, 15}));
    symbols.push_back(symbol_of("BUSDT", 0, {20, 20}, {30, 40}));  // stops after hour 1
    const Market market = build_market(std::move(symbols));
    // 5 bars in 2 parts: [0, 2) and [2, 5): marks after bars 1 and 4.
    const std::vector<double> marks =
        buy_and_hold_marks(market, whole_market(market), equal_parts(market, whole_market(market), 2), 200.0);
    CHECK(marks[0] == doctest::Approx(100.0 * 12 / 10 + 100.0 * 40 / 20).epsilon(1e-15));
    CHECK(marks[1] == doctest::Approx(100.0 * 15 / 10 + 100.0 * 40 / 20).epsilon(1e-15));
}

TEST_CASE("refused: no part, more parts than bars, marks out of order or outside the window") {
    const Market market = two_symbols();
    CHECK_THROWS_AS(equity_mark_bars(market, whole_market(market), 0, false), std::invalid_argument);
    CHECK_THROWS_AS(equity_mark_bars(market, whole_market(market), 7, false), std::invalid_argument);
    CHECK_THROWS_AS(buy_and_hold_marks(market, whole_market(market), {1, 1}, 1000.0), std::invalid_argument);
    CHECK_THROWS_AS(buy_and_hold_marks(market, whole_market(market), {6}, 1000.0), std::invalid_argument);
    CHECK_THROWS_AS(buy_and_hold_marks(market, whole_market(market), {-1}, 1000.0), std::invalid_argument);
}

// Note [Equity marks at UTC days]: hours 22 and 23 of 2024-01-01, 0 and 1
// of 01-02, none on 01-03, 5 of 01-04.
Market across_days() {
    std::vector<SymbolBars> symbols;
    SymbolBars a = symbol_of("AUSDT", 22, {100, 101, 102, 103, 104}, {101, 102, 103, 104, 105});
    a.bars[4].timestamp_ms = kStart + kHour * (3 * 24 + 5);
    symbols.push_back(std::move(a));
    return build_market(std::move(symbols));
}

TEST_CASE("daily parts: the last bar of each UTC day with a bar, the gap day none") {
    const Market market = across_days();
    CHECK(equity_mark_bars(market, whole_market(market), 3, true) == std::vector<int>{1, 3, 4});
    // A window from the second bar: days 01-01 (bar 0 of the window), 01-02, 01-04.
    CHECK(equity_mark_bars(market, MarketWindow{1, 4}, 3, true) == std::vector<int>{0, 2, 3});
    CHECK(equity_mark_bars(market, MarketWindow{2, 2}, 1, true) == std::vector<int>{1});
    // Daily M must be the window's days.
    CHECK_THROWS_AS(equity_mark_bars(market, whole_market(market), 4, true), std::invalid_argument);
    CHECK_THROWS_AS(equity_mark_bars(market, whole_market(market), 2, true), std::invalid_argument);
    // Bought at 100, marked at the closes of bars 1, 3 and 4.
    const std::vector<int> days = equity_mark_bars(market, whole_market(market), 3, true);
    const std::vector<double> marks = buy_and_hold_marks(market, whole_market(market), days, 1000.0);
    REQUIRE(marks.size() == 3);
    CHECK(marks[0] == doctest::Approx(1020.0).epsilon(1e-15));
    CHECK(marks[1] == doctest::Approx(1040.0).epsilon(1e-15));
    CHECK(marks[2] == doctest::Approx(1050.0).epsilon(1e-15));
}

TEST_CASE("UTC days by floor division: before 1970 and at midnight") {
    CHECK(utc_day_of(0) == 0);
    CHECK(utc_day_of(kMillisecondsPerDay - 1) == 0);
    CHECK(utc_day_of(kMillisecondsPerDay) == 1);
    CHECK(utc_day_of(-1) == -1);
    CHECK(utc_day_of(-kMillisecondsPerDay) == -1);
    CHECK(utc_day_of(-kMillisecondsPerDay - 1) == -2);
    CHECK(utc_day_of(kStart) == 19723);  // 2024-01-01
    std::int64_t times[] = {-kMillisecondsPerDay - 1, -1, 0, kMillisecondsPerDay - 1, kMillisecondsPerDay};
    MarketView view{};
    view.n_bars = 5;
    view.timestamp_ms = times;
    // Days -2, -1, 0, 0, 1: bars 0, 1, 3 and 4 end one.
    CHECK(bar_ends_utc_day(view, 0) == 1);
    CHECK(bar_ends_utc_day(view, 1) == 1);
    CHECK(bar_ends_utc_day(view, 2) == 0);
    CHECK(bar_ends_utc_day(view, 3) == 1);
    CHECK(bar_ends_utc_day(view, 4) == 1);
    CHECK(utc_days_with_bars(view) == 4);
}

}  // namespace
}  // namespace btforge
