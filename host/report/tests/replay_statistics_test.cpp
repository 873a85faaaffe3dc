#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "host/report/replay_statistics.h"

namespace btforge {
namespace {

constexpr std::int64_t kHour = 3'600'000;

std::vector<std::int64_t> hours(std::size_t n) {
    std::vector<std::int64_t> t(n);
    for (std::size_t i = 0; i < n; ++i) t[i] = static_cast<std::int64_t>(i) * kHour;
    return t;
}

RoundTrip trip(double net_pnl) {
    RoundTrip r;
    r.net_pnl = net_pnl;
    return r;
}

// Note [Statistics of a replay], worked by hand: one table row a case.
struct Case {
    const char* name;
    std::vector<double> equity;  // initial equity 100
    int drawdown_bars;
    std::int64_t drawdown_hours;
};

TEST_CASE("the longest run below the running peak, in bars and in time") {
    const std::vector<Case> cases = {
        // never below the peak
        {"rising", {100, 101, 102, 103}, 0, 0},
        // starts losing: under water from the first bar (the peak is the initial equity, at bar 0), back at 102
        {"under from the start", {99, 98, 100, 102}, 2, 2},
        // two runs: bars 1-2 (peak at bar 0, back at bar 3: 3 hours), then 5-7 never back (peak bar 4 to bar 7)
        {"the longer one is open at the end", {110, 105, 108, 110, 111, 109, 107, 110}, 3, 3},
        // bars 1-3 under the peak of bar 0, back at bar 4; then bar 6 alone
        {"the longer one closes", {110, 105, 108, 109, 111, 112, 100, 113}, 3, 4},
        // back exactly at the peak ends the run (at or above); the second run, as long, is not longer
        {"equal to the peak", {100, 90, 100, 90}, 1, 2},
        // a single bar under at the very end: from its peak's bar to the last bar
        {"last bar", {101, 102, 103, 102}, 1, 1},
        // longest by bars wins; a tie keeps the first
        {"tie keeps the first", {105, 104, 106, 103, 107}, 1, 2},
    };
    for (const Case& c : cases) {
        CAPTURE(c.name);
        const std::vector<double> hold(c.equity.size(), 100.0);
        const ReplayStatistics s = replay_statistics(c.equity, hours(c.equity.size()), 100.0, 8766.0, {}, hold);
        CHECK(s.max_drawdown_bars == c.drawdown_bars);
        CHECK(s.max_drawdown_duration_ms == c.drawdown_hours * kHour);
    }
}

TEST_CASE("cagr, volatility, trades and buy and hold, worked by hand") {
    // Two bars of a year each (bars_per_year 1): 100 -> 110 -> 121 is 10% a year, returns 0.1 and 0.1 with no
    // spread; the benchmark ends at 150.
    const std::vector<double> equity = {110, 121};
    const std::vector<double> hold = {120, 150};
    const std::vector<RoundTrip> trips = {trip(5), trip(-3), trip(19)};
    ReplayStatistics s = replay_statistics(equity, hours(2), 100.0, 1.0, trips, hold);
    CHECK(s.cagr == doctest::Approx(0.1).epsilon(1e-12));
    CHECK(s.volatility == doctest::Approx(0.0).epsilon(1e-12));
    CHECK(s.best_trade == 19.0);
    CHECK(s.worst_trade == -3.0);
    CHECK(s.buy_and_hold_return == doctest::Approx(0.5).epsilon(1e-15));

    // Returns +10% then -10% over 4 bars a year: mean 0, population sd 0.1, volatility 0.1 * sqrt(4) = 0.2;
    // 100 -> 110 -> 99 in half a year: cagr 0.99^2 - 1.
    s = replay_statistics(std::vector<double>{110, 99}, hours(2), 100.0, 4.0, {}, std::vector<double>{100, 100});
    CHECK(s.volatility == doctest::Approx(0.2).epsilon(1e-12));
    CHECK(s.cagr == doctest::Approx(0.99 * 0.99 - 1.0).epsilon(1e-12));
    CHECK(std::isnan(s.best_trade));
    CHECK(std::isnan(s.worst_trade));
    CHECK(s.buy_and_hold_return == 0.0);

    // Ruined: equity at zero is a cagr of -1, whatever the span.
    s = replay_statistics(std::vector<double>{50, 0}, hours(2), 100.0, 8766.0, {}, std::vector<double>{100, 100});
    CHECK(s.cagr == -1.0);
}

TEST_CASE("lengths that differ are refused") {
    const std::vector<double> equity = {1, 2, 3};
    CHECK_THROWS_AS(replay_statistics(equity, hours(2), 100.0, 1.0, {}, equity), std::invalid_argument);
    CHECK_THROWS_AS(replay_statistics(equity, hours(3), 100.0, 1.0, {}, std::vector<double>{1}),
                    std::invalid_argument);
}

}  // namespace
}  // namespace btforge
