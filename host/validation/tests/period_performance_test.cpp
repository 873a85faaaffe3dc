// Performance of unions of periods from their statistics, worked by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "host/validation/period_performance.h"
#include "host/validation/tests/period_of_returns.h"

namespace btforge {
namespace {

PeriodStatistics period(std::vector<double> returns, double start, double end) {
    PeriodStatistics p = period_of(returns);
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

// Note [Moments from power sums]: worked by hand, then against the two-pass
// moments of the bars themselves.
TEST_CASE("moments of unions of periods from their power sums") {
    // Bars 0, 0, 0, 3 (one period of two bars, another of two): mean 0.75,
    // m2 = 1.6875, m3 = 2.53125 (skewness 2/sqrt(3)), m4 = 6.64453125 (kurtosis 7/3:
    // a Bernoulli(1/4), (1 - 6pq) / pq + 3).
    const std::vector<PeriodStatistics> p = {period({0.0, 0.0}, 1.0, 1.0), period({0.0, 3.0}, 1.0, 4.0)};
    const ReturnMoments m = moments_of_periods(p, 0b11);
    CHECK(m.observations == 4);
    CHECK(m.sharpe == doctest::Approx(0.75 / std::sqrt(1.6875)));
    CHECK(m.skewness == doctest::Approx(2.0 / std::sqrt(3.0)));
    CHECK(m.kurtosis == doctest::Approx(7.0 / 3.0));
    const ReturnMoments flat = moments_of_periods(p, 0b01);
    CHECK(flat.sharpe == 0.0);
    CHECK(flat.skewness == 0.0);
    CHECK(flat.kurtosis == 3.0);

    // Skewed, heavy-tailed bars (a normal plus rare jumps) with per-bar
    // Sharpe ratios from 0 to 0.3: within 1e-9 of moments_of_returns.
    std::mt19937_64 random(21);
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> uniform;
    for (double drift : {0.0, 0.1, 0.3}) {
        std::vector<double> all;
        std::vector<PeriodStatistics> periods;
        for (int q = 0; q < 8; ++q) {
            std::vector<double> bars;
            for (int b = 0; b < 500; ++b) {
                const double jump = uniform(random) < 0.02 ? 0.05 : 0.0;
                bars.push_back(0.01 * (normal(random) + drift) + jump);
            }
            all.insert(all.end(), bars.begin(), bars.end());
            periods.push_back(period(bars, 1.0, 1.0));
        }
        CAPTURE(drift);
        const ReturnMoments sums = moments_of_periods(periods, 0xff);
        const ReturnMoments bars = moments_of_returns(all);
        CHECK(sums.observations == bars.observations);
        CHECK(sums.sharpe == doctest::Approx(bars.sharpe).epsilon(1e-9));
        CHECK(sums.skewness == doctest::Approx(bars.skewness).epsilon(1e-9));
        CHECK(sums.kurtosis == doctest::Approx(bars.kurtosis).epsilon(1e-9));
        CHECK(sums.skewness > 0.5);  // the jumps skew it: the check has something to see
    }
}

}  // namespace
}  // namespace btforge
