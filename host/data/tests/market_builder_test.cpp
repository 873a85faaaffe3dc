#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "host/data/market_builder.h"

using btforge::Bar;
using btforge::build_market;
using btforge::funding_times_between;
using btforge::Market;
using btforge::SymbolBars;

namespace {

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t k8h = 8 * kHour;

SymbolBars regular(const std::string& name, std::int64_t start, std::int64_t step, int n) {
    SymbolBars s;
    s.symbol = name;
    for (int k = 0; k < n; ++k) s.bars.push_back(Bar{start + k * step, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0001});
    return s;
}

}  // namespace

TEST_CASE("funding times: floor division from the epoch, also before 1970") {
    CHECK(funding_times_between(0, k8h, k8h) == 1);
    CHECK(funding_times_between(0, k8h - 1, k8h) == 0);
    CHECK(funding_times_between(k8h - 1, k8h, k8h) == 1);
    CHECK(funding_times_between(k8h, k8h + 1, k8h) == 0);
    CHECK(funding_times_between(-1, 0, k8h) == 1);
    CHECK(funding_times_between(-k8h - 1, -k8h, k8h) == 1);
    CHECK(funding_times_between(-k8h, -1, k8h) == 0);
    CHECK(funding_times_between(-3 * k8h, 0, k8h) == 3);
}

TEST_CASE("funding events: 1-minute bars settle one every 480 bars") {
    const Market m = build_market({regular("A", 0, 60'000, 1441)});
    int total = 0;
    for (int t = 0; t < m.n_bars(); ++t) {
        const int e = m.funding_events[m.index(0, t)];
        CHECK(e == ((t > 0 && t % 480 == 0) ? 1 : 0));
        total += e;
    }
    CHECK(total == 3);
}

TEST_CASE("funding events: hourly bars settle one every 8, from an unaligned start too") {
    const Market m = build_market({regular("A", 0, kHour, 25)});
    for (int t = 0; t < 25; ++t) CHECK(m.funding_events[m.index(0, t)] == ((t > 0 && t % 8 == 0) ? 1 : 0));
    // Half past the hour: the 08:00 funding falls inside (07:30, 08:30].
    const Market shifted = build_market({regular("A", 7 * kHour + kHour / 2, kHour, 3)});
    CHECK(shifted.funding_events == std::vector<std::int32_t>{0, 1, 0});
}

TEST_CASE("funding events: daily bars settle three") {
    const Market m = build_market({regular("A", 19'723LL * 24 * kHour, 24 * kHour, 5)});
    CHECK(m.funding_events == std::vector<std::int32_t>{0, 3, 3, 3, 3});
}

TEST_CASE("alignment: union of timestamps, held closes, NaN before the first bar") {
    SymbolBars a = regular("A", 0, kHour, 4);
    SymbolBars b;
    b.symbol = "B";
    b.instrument = {0.1, 0.2, 0.5};
    b.bars = {Bar{kHour, 10, 12, 9, 11, 3, -0.0001}, Bar{kHour * 3 + 1, 11, 11, 10, 10.5, 2, 0.0002}};
    const Market m = build_market({a, b}, kHour);
    CHECK(m.timestamp_ms == std::vector<std::int64_t>{0, kHour, 2 * kHour, 3 * kHour, 3 * kHour + 1});
    CHECK(m.own_bars[0] == std::vector<int>{0, 1, 2, 3});
    CHECK(m.own_bars[1] == std::vector<int>{1, 4});
    CHECK(m.tradable == std::vector<std::uint8_t>{1, 1, 1, 1, 0, 0, 1, 0, 0, 1});
    CHECK(std::isnan(m.open[m.index(1, 0)]));
    CHECK(m.volume[m.index(1, 0)] == 0.0);
    for (int t : {2, 3}) {
        const std::size_t i = m.index(1, t);
        CHECK(m.open[i] == 11.0);
        CHECK(m.high[i] == 11.0);
        CHECK(m.low[i] == 11.0);
        CHECK(m.close[i] == 11.0);
        CHECK(m.volume[i] == 0.0);
        CHECK(m.funding_events[i] == 0);
    }
    CHECK(m.close[m.index(0, 4)] == 1.0);  // A holds its close at B's odd timestamp
    CHECK(m.funding_events[m.index(1, 4)] == 2);  // (1h, 3h+1ms] holds 2h and 3h, not 1h
    CHECK(m.funding_rate[m.index(1, 4)] == 0.0002);
    CHECK(m.instruments[1].min_qty == 0.2);
    const auto view = m.view();
    CHECK(view.n_symbols == 2);
    CHECK(view.n_bars == 5);
    CHECK(view.qty_step[1] == 0.1);
}

TEST_CASE("builder preconditions") {
    CHECK_THROWS_AS(build_market({regular("A", 0, kHour, 2), regular("A", 0, kHour, 2)}), std::invalid_argument);
    CHECK_THROWS_AS(build_market({regular("A", 0, kHour, 0)}), std::invalid_argument);
    CHECK_THROWS_AS(build_market({regular("A", 0, 0, 2)}), std::invalid_argument);
    CHECK_THROWS_AS(build_market({regular("A", 0, kHour, 2)}, 0), std::invalid_argument);
    std::vector<SymbolBars> many;
    for (int s = 0; s <= btforge::kMaxSymbols; ++s) {
        std::string name = "S";  // appended: GCC 12 -Wrestrict misfires on "S" + temporary
        name += std::to_string(s);
        many.push_back(regular(name, 0, kHour, 1));
    }
    CHECK_THROWS_WITH_AS(build_market(many), doctest::Contains("at most"), std::invalid_argument);
    many.pop_back();
    CHECK(build_market(many).n_symbols() == btforge::kMaxSymbols);
}
