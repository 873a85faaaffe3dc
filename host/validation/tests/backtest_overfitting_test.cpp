// Note [Combinatorially symmetric cross-validation]: the splits, two
// hand-worked cases, an independent brute-force oracle on raw bar returns,
// and Monte Carlo runs of strategies without and with an edge.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/validation/backtest_overfitting.h"
#include "host/validation/tests/period_of_returns.h"

namespace btforge {
namespace {

TEST_CASE("CSCV splits: C(S, S/2) masks of S/2 in-sample periods, in increasing order") {
    CHECK(cscv_split_masks(2) == std::vector<std::uint32_t>{0b01, 0b10});
    CHECK(cscv_split_masks(4) == std::vector<std::uint32_t>{0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100});
    const std::vector<std::uint32_t> sixteen = cscv_split_masks(16);
    CHECK(sixteen.size() == 12870);
    CHECK(std::all_of(sixteen.begin(), sixteen.end(), [](std::uint32_t m) { return std::popcount(m) == 8; }));
    CHECK(std::is_sorted(sixteen.begin(), sixteen.end()));
}

TEST_CASE("sharpe_of_periods: mean over population standard deviation of the selected periods' bars") {
    const std::vector<PeriodStatistics> periods = {period_of({1.0, 3.0}), period_of({-1.0, 1.0}), period_of({2.0, 2.0})};
    // Periods 0 and 2: bars 1, 3, 2, 2: mean 2, variance 0.5.
    CHECK(sharpe_of_periods(periods, 0b101) == doctest::Approx(2.0 / std::sqrt(0.5)));
    CHECK(sharpe_of_periods(periods, 0b010) == 0.0);  // mean 0
    CHECK(sharpe_of_periods(periods, 0b100) == 0.0);  // no spread
    CHECK(sharpe_of_periods(periods, 0) == 0.0);      // no bar
}

// Two combinations, two periods, worked by hand. A is great in period 0
// and loses in period 1; B is weak but positive in period 0 and great in
// period 1. Split {0}: A wins in-sample, and out-of-sample (period 1) it is
// below B: ω = (1 + 0) / 3, λ = ln(1/2) < 0. Split {1}: B wins, and in
// period 0 it is below A: again λ < 0. Both winners fall below the median:
// PBO = 1; one of them (A) loses out-of-sample: probability of loss 1/2.
TEST_CASE("hand-worked: a winner that never repeats has PBO 1") {
    const std::vector<PeriodStatistics> returns = {
        period_of({0.02, 0.04}), period_of({-0.01, -0.03}),  // A
        period_of({0.00, 0.01}), period_of({0.03, 0.05}),    // B
    };
    const OverfittingReport r = probability_of_backtest_overfitting(returns, 2, {});
    REQUIRE(r.splits.size() == 2);
    CHECK(r.splits[0].in_sample_mask == 0b01);
    CHECK(r.splits[0].winner == 0);
    CHECK(r.splits[0].relative_rank == doctest::Approx(1.0 / 3.0));
    CHECK(r.splits[0].logit == doctest::Approx(std::log(0.5)));
    CHECK(r.splits[1].winner == 1);
    CHECK(r.splits[1].relative_rank == doctest::Approx(1.0 / 3.0));
    CHECK(r.pbo == 1.0);
    CHECK(r.probability_of_loss == 0.5);
}

// A dominates B in both periods: the winner is A in each split and ranks
// first out-of-sample: ω = 2/3, λ = ln 2 > 0, PBO = 0, no loss.
TEST_CASE("hand-worked: a winner that repeats has PBO 0") {
    const std::vector<PeriodStatistics> returns = {
        period_of({0.02, 0.03}), period_of({0.01, 0.03}),  // A
        period_of({0.00, 0.01}), period_of({-0.01, 0.01}), // B
    };
    const OverfittingReport r = probability_of_backtest_overfitting(returns, 2, {});
    for (const OverfittingSplit& s : r.splits) {
        CHECK(s.winner == 0);
        CHECK(s.relative_rank == doctest::Approx(2.0 / 3.0));
        CHECK(s.logit == doctest::Approx(std::log(2.0)));
    }
    CHECK(r.pbo == 0.0);
    CHECK(r.probability_of_loss == 0.0);
}

// The paper's procedure on the raw T x N matrix of bar returns, written the
// plain way (two-pass moments over the bars of each half, ranks by sorting),
// as an oracle for the period-sum implementation.
struct Oracle {
    std::vector<int> winners;
    std::vector<double> logits;
};

Oracle brute_force(const std::vector<std::vector<std::vector<double>>>& bars, int periods) {
    Oracle out;
    const std::size_t n = bars.size();
    for (std::uint32_t mask : cscv_split_masks(periods)) {
        std::vector<double> is(n), oos(n);
        for (std::size_t k = 0; k < n; ++k) {
            for (int half = 0; half < 2; ++half) {
                std::vector<double> r;
                for (int p = 0; p < periods; ++p) {
                    if (((mask >> p) & 1u) == (half == 0 ? 1u : 0u)) r.insert(r.end(), bars[k][p].begin(), bars[k][p].end());
                }
                double mean = 0.0;
                for (double x : r) mean += x;
                mean /= static_cast<double>(r.size());
                double var = 0.0;
                for (double x : r) var += (x - mean) * (x - mean);
                var /= static_cast<double>(r.size());
                (half == 0 ? is : oos)[k] = mean / std::sqrt(var);
            }
        }
        const int winner = static_cast<int>(std::max_element(is.begin(), is.end()) - is.begin());
        std::vector<double> sorted = oos;
        std::sort(sorted.begin(), sorted.end());
        const double rank = static_cast<double>(std::lower_bound(sorted.begin(), sorted.end(), oos[winner]) -
                                                sorted.begin()) + 1.0;
        const double omega = rank / (static_cast<double>(n) + 1.0);
        out.winners.push_back(winner);
        out.logits.push_back(std::log(omega / (1.0 - omega)));
    }
    return out;
}

std::vector<std::vector<std::vector<double>>> random_bars(std::uint64_t seed, int strategies, int periods, int bars,
                                                          int edges, double edge) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal;
    std::vector<std::vector<std::vector<double>>> out(strategies, std::vector<std::vector<double>>(periods));
    for (int k = 0; k < strategies; ++k) {
        for (int p = 0; p < periods; ++p) {
            for (int b = 0; b < bars; ++b) out[k][p].push_back(0.01 * (normal(random) + (k < edges ? edge : 0.0)));
        }
    }
    return out;
}

std::vector<PeriodStatistics> as_periods(const std::vector<std::vector<std::vector<double>>>& bars) {
    std::vector<PeriodStatistics> out;
    for (const auto& strategy : bars) {
        for (const auto& period : strategy) out.push_back(period_of(period));
    }
    return out;
}

TEST_CASE("the period-sum CSCV agrees with the brute-force procedure on raw bars") {
    const auto bars = random_bars(5, 40, 8, 50, 0, 0.0);
    const Oracle oracle = brute_force(bars, 8);
    const OverfittingReport r = probability_of_backtest_overfitting(as_periods(bars), 8, {2});
    REQUIRE(r.splits.size() == oracle.winners.size());
    for (std::size_t s = 0; s < r.splits.size(); ++s) {
        CAPTURE(s);
        CHECK(static_cast<int>(r.splits[s].winner) == oracle.winners[s]);
        // Continuous returns: no ties, so the ranks agree exactly.
        CHECK(r.splits[s].logit == doctest::Approx(oracle.logits[s]).epsilon(1e-12));
    }
}

TEST_CASE("the report is the same for any thread count") {
    const auto periods = as_periods(random_bars(9, 60, 10, 30, 0, 0.0));
    const OverfittingReport one = probability_of_backtest_overfitting(periods, 10, {1});
    const OverfittingReport many = probability_of_backtest_overfitting(periods, 10, {4});
    CHECK(one.pbo == many.pbo);
    CHECK(one.degradation_slope == many.degradation_slope);
    for (std::size_t s = 0; s < one.splits.size(); ++s) CHECK(one.splits[s].logit == many.splits[s].logit);
}

// Ties, worked by hand (Note [CSCV scan]): combinations 0 and 1 are the
// same, 2 is worse in both periods. Each split's winner is 0 (the smaller
// index of the tie); out of sample 2 is below it and 1 ties with it, so
// ω = (1 + 1 + 1/2) / 4 = 0.625. A combination whose sums are NaN has a
// Sharpe ratio of 0 (no measurable spread, as the metrics' sharpe): with 0
// replaced so, 1 wins both splits (Sharpe 3 and 2) over 2 (1 and 0) and 0
// (0), both below it out of sample: ω = (1 + 2) / 4.
TEST_CASE("hand-worked: ties go to the smaller combination and count half out of sample; NaN sums score 0") {
    const std::vector<PeriodStatistics> returns = {
        period_of({0.02, 0.01}), period_of({0.01, 0.03}),    // 0
        period_of({0.02, 0.01}), period_of({0.01, 0.03}),    // 1, the same
        period_of({0.00, 0.01}), period_of({-0.01, 0.01}),   // 2
    };
    const OverfittingReport r = probability_of_backtest_overfitting(returns, 2, {});
    for (const OverfittingSplit& s : r.splits) {
        CHECK(s.winner == 0);
        CHECK(s.relative_rank == 0.625);
    }
    std::vector<PeriodStatistics> with_nan = returns;
    with_nan[0].return_sum = std::nan("");
    with_nan[1].return_sum = std::nan("");
    const OverfittingReport n = probability_of_backtest_overfitting(with_nan, 2, {});
    for (const OverfittingSplit& s : n.splits) {
        CHECK(s.winner == 1);
        CHECK(s.relative_rank == 0.75);
    }
}

// Note [Uninformative splits], issue 29: one combination gave "PBO 1.00 ...
// most likely overfit" (every split's ω is 1/2, λ = 0 <= 0), and so did
// combinations with identical returns.
TEST_CASE("degenerate: one combination leaves the PBO undefined, not 1") {
    const std::vector<PeriodStatistics> one = {period_of({0.01, -0.02}), period_of({0.03, 0.01}),
                                               period_of({-0.01, 0.02}), period_of({0.00, 0.01})};
    const OverfittingReport r = probability_of_backtest_overfitting(one, 4, {});
    REQUIRE(r.splits.size() == 6);
    CHECK(r.informative_splits == 0);
    REQUIRE(r.undefined != nullptr);
    CHECK(std::string(r.undefined) == "one combination: nothing was selected");
    CHECK(std::isnan(r.pbo));
    CHECK(std::isnan(r.probability_of_loss));
    CHECK(std::isnan(r.degradation_slope));
    for (const OverfittingSplit& s : r.splits) CHECK_FALSE(s.informative);
}

TEST_CASE("degenerate: identical returns, and returns that differ only in scale") {
    const std::vector<PeriodStatistics> row = {period_of({0.01, -0.02}), period_of({0.03, 0.01}),
                                               period_of({-0.01, 0.02}), period_of({0.00, 0.01})};
    std::vector<PeriodStatistics> same;
    for (int n = 0; n < 3; ++n) same.insert(same.end(), row.begin(), row.end());
    const OverfittingReport r = probability_of_backtest_overfitting(same, 4, {2});
    CHECK(r.informative_splits == 0);
    REQUIRE(r.undefined != nullptr);
    CHECK(std::string(r.undefined) == "all combinations have identical period returns");
    CHECK(std::isnan(r.pbo));
    // Twice the position: other returns, the same Sharpe ratio in every union of periods.
    std::vector<PeriodStatistics> scaled = row;
    for (const PeriodStatistics& p : row) {
        PeriodStatistics doubled = p;
        doubled.return_sum *= 2.0;
        doubled.return_sum_squares *= 4.0;
        scaled.push_back(doubled);
    }
    const OverfittingReport s = probability_of_backtest_overfitting(scaled, 4, {});
    CHECK(s.informative_splits == 0);
    REQUIRE(s.undefined != nullptr);
    CHECK(std::string(s.undefined).find("in every split, all combinations have the same Sharpe ratio") == 0);
}

// A and B are the same in periods 0 and 1 and differ in 2 and 3: the split
// with in-sample {0, 1} selects nothing, the one with in-sample {2, 3} has
// nothing to rank out of sample; the other four decide. A is better in
// period 2, B in period 3, so each of those four splits' winner is below
// the other out of sample or above it: PBO over 4 splits.
TEST_CASE("degenerate splits are left out of the PBO, the others decide") {
    const std::vector<PeriodStatistics> returns = {
        period_of({0.01, -0.02}), period_of({0.03, 0.01}), period_of({0.02, 0.03}), period_of({-0.01, 0.00}),  // A
        period_of({0.01, -0.02}), period_of({0.03, 0.01}), period_of({-0.02, 0.01}), period_of({0.02, 0.03}),  // B
    };
    const OverfittingReport r = probability_of_backtest_overfitting(returns, 4, {});
    REQUIRE(r.splits.size() == 6);
    CHECK(r.undefined == nullptr);
    CHECK(r.informative_splits == 4);
    for (const OverfittingSplit& s : r.splits) {
        CAPTURE(s.in_sample_mask);
        CHECK(s.informative == (s.in_sample_mask != 0b0011 && s.in_sample_mask != 0b1100));
    }
    double below = 0.0;
    for (const OverfittingSplit& s : r.splits) below += s.informative && s.logit <= 0.0 ? 1.0 : 0.0;
    CHECK(r.pbo == below / 4.0);
}

// Each split's winner has an in-sample Sharpe ratio of 3: one point, no
// line. The slope used to be 0 and the intercept the mean out-of-sample Sharpe.
TEST_CASE("degenerate: winners whose in-sample Sharpe ratios do not vary have no degradation line") {
    const std::vector<PeriodStatistics> returns = {
        period_of({0.02, 0.04}), period_of({0.00, 0.01}),  // A: Sharpe 3, then 1
        period_of({0.00, 0.01}), period_of({0.02, 0.04}),  // B: Sharpe 1, then 3
    };
    const OverfittingReport r = probability_of_backtest_overfitting(returns, 2, {});
    CHECK(r.undefined == nullptr);
    CHECK(r.informative_splits == 2);
    CHECK(r.pbo == 1.0);
    CHECK(r.splits[0].in_sample_sharpe == r.splits[1].in_sample_sharpe);
    REQUIRE(r.degradation_undefined != nullptr);
    CHECK(std::string(r.degradation_undefined) == "the winners' in-sample Sharpe ratios do not vary");
    CHECK(std::isnan(r.degradation_slope));
    CHECK(std::isnan(r.degradation_intercept));
}

TEST_CASE("inputs that are not a CSCV are refused") {
    const std::vector<PeriodStatistics> six(6);
    CHECK_THROWS_AS(probability_of_backtest_overfitting(six, 3, {}), std::invalid_argument);
    CHECK_THROWS_AS(probability_of_backtest_overfitting(six, 4, {}), std::invalid_argument);
    CHECK_THROWS_AS(probability_of_backtest_overfitting({}, 2, {}), std::invalid_argument);
    CHECK_THROWS_AS(probability_of_backtest_overfitting(std::vector<PeriodStatistics>(36), 18, {}), std::invalid_argument);
    // The periods cut one window: a combination with other bar counts is not from the same sweep.
    std::vector<PeriodStatistics> ragged = {period_of({0.01, 0.02}), period_of({0.01}), period_of({0.01, 0.02}),
                                            period_of({0.01, 0.02})};
    CHECK_THROWS_AS(probability_of_backtest_overfitting(ragged, 2, {}), std::invalid_argument);
}

// Monte Carlo, no edge: 100 strategies of normal bar returns, S = 8 periods
// of 100 bars. The in-sample winner is a random strategy out-of-sample, so
// PBO is near 1/2 on average (it counts ω <= 1/2): over 20 markets (seeds
// 100..119) the mean PBO must be within 0.1 of 0.5, and the degradation
// slope near 0 or below (in-sample Sharpe predicts nothing).
TEST_CASE("Monte Carlo: without an edge PBO is near one half") {
    double mean_pbo = 0.0;
    double mean_slope = 0.0;
    for (std::uint64_t seed = 100; seed < 120; ++seed) {
        const OverfittingReport r = probability_of_backtest_overfitting(as_periods(random_bars(seed, 100, 8, 100, 0, 0.0)), 8, {2});
        mean_pbo += r.pbo / 20.0;
        mean_slope += r.degradation_slope / 20.0;
    }
    CHECK(mean_pbo == doctest::Approx(0.5).epsilon(0.2));
    CHECK(mean_slope < 0.3);
}

// Monte Carlo, a planted edge: 10 of the 100 strategies have a per-bar
// Sharpe ratio of 0.15 (in 400 in-sample bars, 3 standard errors). The
// family wins in-sample and repeats out-of-sample: PBO below 0.1, the
// winner is one of the family in at least 90% of the splits, and the
// out-of-sample Sharpe of the winner is positive in at least 90%.
TEST_CASE("Monte Carlo: with a real edge PBO is low and the edge family wins out-of-sample") {
    const OverfittingReport r = probability_of_backtest_overfitting(as_periods(random_bars(77, 100, 8, 100, 10, 0.15)), 8, {2});
    CHECK(r.pbo < 0.1);
    const auto family = std::count_if(r.splits.begin(), r.splits.end(), [](const OverfittingSplit& s) { return s.winner < 10; });
    CHECK(static_cast<double>(family) >= 0.9 * static_cast<double>(r.splits.size()));
    CHECK(r.probability_of_loss <= 0.1);
}

}  // namespace
}  // namespace btforge
