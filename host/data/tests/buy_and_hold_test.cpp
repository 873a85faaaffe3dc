// Note [Buy-and-hold benchmark], worked by hand: two symbols, one that
// starts trading inside the window, and a window that starts after the
// market's first bar.
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "host/data/buy_and_hold.h"
#include "host/data/market_builder.h"
#include "host/data/synthetic_market.h"

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
    const std::vector<double> marks = buy_and_hold_marks(market, whole_market(market), 3, 1000.0);
    REQUIRE(marks.size() == 3);
    CHECK(marks[0] == doctest::Approx(1010.0).epsilon(1e-15));
    CHECK(marks[1] == doctest::Approx(1170.0).epsilon(1e-15));
    CHECK(marks[2] == doctest::Approx(1380.0).epsilon(1e-15));
}

TEST_CASE("a window after the first bars buys at the window's first open") {
    const Market market = two_symbols();
    // Bars 3..5 in 3 parts of 1: A bought at 103, B at 60 (bar 3's opens).
    //   bar 3: 500 * 104/103 + 500 * 65/60; bar 4: 105/103, 75/60; bar 5: 106/103, 85/60.
    const std::vector<double> marks = buy_and_hold_marks(market, MarketWindow{3, 3}, 3, 1000.0);
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
    const std::vector<double> marks = buy_and_hold_marks(market, whole_market(market), 2, 200.0);
    CHECK(marks[0] == doctest::Approx(100.0 * 12 / 10 + 100.0 * 40 / 20).epsilon(1e-15));
    CHECK(marks[1] == doctest::Approx(100.0 * 15 / 10 + 100.0 * 40 / 20).epsilon(1e-15));
}

TEST_CASE("refused: no part, or more parts than bars") {
    const Market market = two_symbols();
    CHECK_THROWS_AS(buy_and_hold_marks(market, whole_market(market), 0, 1000.0), std::invalid_argument);
    CHECK_THROWS_AS(buy_and_hold_marks(market, whole_market(market), 7, 1000.0), std::invalid_argument);
}

}  // namespace
}  // namespace btforge
