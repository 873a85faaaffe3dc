// Note [Market import]: bar lengths, the gap report and resampling as
// tables of edge cases.
#include <doctest/doctest.h>

#include <vector>

#include "host/data/market_import.h"

namespace btforge {
namespace {

Bar bar_at(std::int64_t t, double price, double volume = 1.0) {
    return Bar{t, price, price + 1.0, price - 1.0, price, volume, 0.0};
}

TEST_CASE("bar lengths: N followed by s, m, h or d") {
    CHECK(parse_bar_length("1m") == 60'000);
    CHECK(parse_bar_length("15m") == 900'000);
    CHECK(parse_bar_length("4h") == 14'400'000);
    CHECK(parse_bar_length("1d") == 86'400'000);
    CHECK(parse_bar_length("30s") == 30'000);
    for (const char* bad : {"", "m", "0m", "1w", "1.5h", "-1h", "h1", "99999999999h"}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_bar_length(bad).has_value());
    }
    CHECK(describe_bar_length(3'600'000) == "1h");
    CHECK(describe_bar_length(90'000) == "90s");
}

TEST_CASE("the gap report: the most common step, and the longer ones") {
    const std::int64_t m = 60'000;
    const std::vector<Bar> bars = {bar_at(0, 1), bar_at(m, 1), bar_at(2 * m, 1), bar_at(5 * m, 1), bar_at(6 * m, 1),
                                   bar_at(8 * m, 1)};
    const SymbolGaps g = find_gaps("X", bars);
    CHECK(g.interval_ms == m);
    CHECK(g.gaps == 2);
    CHECK(g.missing_bars == 2 + 1);
    CHECK(g.largest_gap_ms == 3 * m);
    CHECK(g.largest_gap_after_ms == 2 * m);
    CHECK(find_gaps("X", std::vector<Bar>{bar_at(0, 1)}).interval_ms == 0);
}

TEST_CASE("resampling: buckets aligned to the epoch, negative times included") {
    const std::int64_t m = 60'000;
    const std::vector<Bar> bars = {bar_at(-2 * m, 10, 1), bar_at(-m, 12, 2), bar_at(0, 11, 3), bar_at(4 * m, 9, 4),
                                   bar_at(5 * m, 20, 5)};
    const std::vector<Bar> out = resample_bars(bars, 5 * m);
    REQUIRE(out.size() == 3);
    CHECK(out[0].timestamp_ms == -5 * m);  // floor, not truncation toward zero
    CHECK((out[0].open == 10 && out[0].close == 12 && out[0].high == 13 && out[0].low == 9 && out[0].volume == 3));
    CHECK(out[1].timestamp_ms == 0);
    CHECK((out[1].open == 11 && out[1].close == 9 && out[1].high == 12 && out[1].low == 8 && out[1].volume == 7));
    CHECK(out[2].timestamp_ms == 5 * m);
}

}  // namespace
}  // namespace btforge
