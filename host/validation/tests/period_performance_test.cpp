// Performance of unions of periods from their statistics, worked by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "host/validation/period_performance.h"

namespace btforge {
namespace {

PeriodStatistics period(std::vector<double> returns, double start, double end) {
    PeriodStatistics p{};
    for (double r : returns) {
        p.return_sum += r;
        p.return_sum_squares += r * r;
        if (r < 0.0) p.downside_sum_squares += r * r;
    }
    p.bars = static_cast<int>(returns.size());
    p.start_equity = start;
    p.end_equity = end;
    return p;
}

TEST_CASE("Sharpe, Sortino and return of unions of periods") {
    // Bars: 0.1, -0.1 | 0.2, 0.0 | -0.05, 0.05 with equities 100 -> 99 -> 118.8 -> 118.5.
    const std::vector<PeriodStatistics> p = {period({0.1, -0.1}, 100.0, 99.0), period({0.2, 0.0}, 99.0, 118.8),
                                             period({-0.05, 0.05}, 118.8, 118.5)};
    // Periods 0 and 1: mean 0.05, Σr² = 0.06, variance 0.06 / 4 - 0.0025 = 0.0125.
    CHECK(sharpe_of_periods(p, 0b011) == doctest::Approx(0.05 / std::sqrt(0.0125)));
    // Downside Σ = 0.01 over 4 bars: sqrt(0.0025) = 0.05; Sortino 1.
    CHECK(sortino_of_periods(p, 0b011) == doctest::Approx(1.0));
    CHECK(sortino_of_periods(p, 0b010) == 0.0);  // no losing bar
    CHECK(sharpe_of_periods(p, 0) == 0.0);
    CHECK(bars_of_periods(p, 0b101) == 4);
    CHECK(return_of_periods(p, 1, 2) == doctest::Approx(118.5 / 99.0 - 1.0));
    CHECK(return_of_periods(p, 0, 0) == doctest::Approx(-0.01));
}

}  // namespace
}  // namespace btforge
