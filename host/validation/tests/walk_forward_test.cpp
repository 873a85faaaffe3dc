// Note [Walk-forward from period statistics]: parsing, a hand-worked run,
// and the anchored windows.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/validation/sharpe_statistics.h"
#include "host/validation/walk_forward.h"

namespace btforge {
namespace {

// A period of `bars` bars that all return r, from equity `start`.
PeriodStatistics flat_period(double r, int bars, double start, int trades = 0) {
    PeriodStatistics p{};
    p.return_sum = r * bars;
    p.return_sum_squares = r * r * bars;
    p.downside_sum_squares = r < 0.0 ? r * r * bars : 0.0;
    p.bars = bars;
    p.start_equity = start;
    p.end_equity = start * std::pow(1.0 + r, bars);
    p.trades = trades;
    return p;
}

// Per-bar returns of each combination in each of 4 periods; equities chain.
std::vector<PeriodStatistics> matrix(const std::vector<std::vector<double>>& returns) {
    std::vector<PeriodStatistics> out;
    for (const auto& row : returns) {
        double equity = 100.0;
        for (double r : row) {
            out.push_back(flat_period(r, 10, equity, 1));
            equity = out.back().end_equity;
        }
    }
    return out;
}

TEST_CASE("walk-forward plans: anchored, anchored:K, rolling:K") {
    std::string error;
    auto a = parse_walk_forward("anchored", &error);
    REQUIRE(a);
    CHECK(a->window == WalkForwardWindow::Anchored);
    CHECK(a->in_sample_periods == 1);
    auto a3 = parse_walk_forward("anchored:3", &error);
    REQUIRE(a3);
    CHECK(a3->in_sample_periods == 3);
    auto r = parse_walk_forward("rolling:4", &error);
    REQUIRE(r);
    CHECK(r->window == WalkForwardWindow::Rolling);
    CHECK(describe_walk_forward(*r) == "rolling:4");
    for (const char* bad : {"rolling", "rolling:0", "rolling:x", "rolling:2x", "forward:2", ""}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_walk_forward(bad, &error));
        CHECK_FALSE(error.empty());
    }
    CHECK(walk_forward_score("sharpe") == WalkForwardScore::Sharpe);
    CHECK_FALSE(walk_forward_score("max_drawdown"));
}

// Three combinations over four periods (flat per-bar returns, so the return
// decides every score). A wins periods 0 and 1 and loses afterwards; B is
// steady; C loses early and wins late. Rolling:2 by total return:
//   step period 2: in-sample {0, 1}: A (0.02 a bar); out-of-sample A loses;
//   step period 3: in-sample {1, 2}: C (0.99^10 * 1.03^10 = +21.5%, against
//     B's 1.005^20 = +10.5% and A's 1.02^10 * 0.99^10 = +10.2%); out-of-sample
//     C's period 3.
TEST_CASE("hand-worked rolling walk-forward picks each step's in-sample winner") {
    const auto periods = matrix({
        {0.02, 0.02, -0.01, -0.01},  // A
        {0.005, 0.005, 0.005, 0.005},  // B
        {-0.01, -0.01, 0.03, 0.03},  // C
    });
    const WalkForwardReport r =
        walk_forward(periods, 4, WalkForwardPlan{WalkForwardWindow::Rolling, 2}, WalkForwardScore::TotalReturn);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].first_in_sample == 0);
    CHECK(r.steps[0].out_of_sample == 2);
    CHECK(r.steps[0].winner == 0);
    CHECK(r.steps[0].out_of_sample_return == doctest::Approx(std::pow(0.99, 10) - 1.0));
    CHECK(r.steps[0].in_sample_return == doctest::Approx(std::pow(1.02, 20) - 1.0));
    CHECK(r.steps[1].first_in_sample == 1);
    CHECK(r.steps[1].winner == 2);
    CHECK(r.steps[1].out_of_sample_return == doctest::Approx(std::pow(1.03, 10) - 1.0));
    CHECK(r.stitched_return == doctest::Approx(std::pow(0.99, 10) * std::pow(1.03, 10) - 1.0));
    CHECK(r.stitched_bars == 20);
    CHECK(r.stitched_trades == 2);
    CHECK(std::isfinite(r.efficiency));
}

TEST_CASE("anchored walk-forward grows the in-sample window from the first period") {
    const auto periods = matrix({{0.01, 0.01, 0.01, 0.01}, {0.0, 0.02, 0.0, 0.02}});
    const WalkForwardReport r =
        walk_forward(periods, 4, WalkForwardPlan{WalkForwardWindow::Anchored, 1}, WalkForwardScore::Sharpe);
    REQUIRE(r.steps.size() == 3);
    for (std::size_t i = 0; i < r.steps.size(); ++i) {
        CHECK(r.steps[i].first_in_sample == 0);
        CHECK(r.steps[i].out_of_sample == static_cast<int>(i) + 1);
        CHECK(r.steps[i].in_sample_bars == 10 * (static_cast<int>(i) + 1));
    }
    // Flat returns have no spread: every Sharpe is 0, so nothing is selected
    // (Note [Undefined statistics]) and the smaller ordinal stands in.
    CHECK(r.steps[0].winner == 0);
    CHECK(r.steps[0].in_sample_ties == 2);
    CHECK(std::string(r.steps[0].selection_undefined) == "every combination has the same in-sample score");
    CHECK(r.steps[1].selection_undefined == nullptr);
    CHECK(r.efficiency_undefined == nullptr);
    CHECK_THROWS_AS(walk_forward(periods, 4, WalkForwardPlan{WalkForwardWindow::Rolling, 4}, WalkForwardScore::Sharpe),
                    std::invalid_argument);
}

// Issue 29: walk-forward with a single combination re-optimizes nothing.
TEST_CASE("degenerate walk-forward: one combination, identical ones, scores that are NaN, a period without bars") {
    const auto one = matrix({{0.02, 0.01, -0.01, 0.03}});
    const WalkForwardReport r =
        walk_forward(one, 4, WalkForwardPlan{WalkForwardWindow::Rolling, 2}, WalkForwardScore::TotalReturn);
    for (const WalkForwardStep& s : r.steps) CHECK(std::string(s.selection_undefined) == kOneCombination);
    CHECK(std::isnan(r.efficiency));
    CHECK(std::string(r.efficiency_undefined) == kOneCombination);
    CHECK(r.stitched_return == doctest::Approx(std::pow(0.99, 10) * std::pow(1.03, 10) - 1.0));  // still what it earned

    const auto twins = matrix({{0.02, 0.01, -0.01, 0.03}, {0.02, 0.01, -0.01, 0.03}});
    const WalkForwardReport t =
        walk_forward(twins, 4, WalkForwardPlan{WalkForwardWindow::Anchored, 1}, WalkForwardScore::TotalReturn);
    CHECK(std::string(t.efficiency_undefined) == "every combination has the same in-sample score");

    // A NaN score for the first combination used to win every step (nothing is > NaN).
    auto nan_first = matrix({{0.02, 0.01, -0.01, 0.03}, {0.01, 0.02, 0.01, 0.0}, {0.0, 0.03, 0.0, 0.0}});
    for (int p = 0; p < 4; ++p) nan_first[static_cast<std::size_t>(p)].end_equity = std::nan("");
    const WalkForwardReport n =
        walk_forward(nan_first, 4, WalkForwardPlan{WalkForwardWindow::Rolling, 2}, WalkForwardScore::TotalReturn);
    for (const WalkForwardStep& s : n.steps) {
        CHECK(s.winner != 0);
        CHECK(std::isfinite(s.in_sample_score));
        CHECK(s.selection_undefined == nullptr);
    }
    for (PeriodStatistics& p : nan_first) p.end_equity = std::nan("");
    const WalkForwardReport all_nan =
        walk_forward(nan_first, 4, WalkForwardPlan{WalkForwardWindow::Rolling, 2}, WalkForwardScore::TotalReturn);
    CHECK(std::string(all_nan.steps[0].selection_undefined) == "no combination has a finite in-sample score");

    // A period without bars: no out-of-sample Sharpe ratio there.
    auto empty = matrix({{0.02, 0.01, -0.01, 0.03}, {0.01, 0.02, 0.01, 0.0}});
    for (std::size_t c = 0; c < 2; ++c) {
        PeriodStatistics& p = empty[c * 4 + 3];
        p = flat_period(0.0, 0, p.start_equity);
    }
    const WalkForwardReport e =
        walk_forward(empty, 4, WalkForwardPlan{WalkForwardWindow::Rolling, 2}, WalkForwardScore::Sharpe);
    CHECK(e.steps[0].out_of_sample_undefined == nullptr);
    CHECK(std::string(e.steps[1].out_of_sample_undefined) == "its out-of-sample period has no bars");
    CHECK(std::isnan(e.steps[1].out_of_sample_sharpe));
}

// Note [Walk-forward winners in one pass]: the winners selected in one pass
// on tiles of 4096 combinations, on 1 or 3 threads, against the fold over
// every ordinal written out here (the selection as it was before the pass).
// Rows are drawn from a few kinds so that ties span tiles: equal returns, a
// -0.0 against +0.0, NaN sums (a NaN Sharpe) and runs of all-NaN rows at the
// start of a tile.
TEST_CASE("walk-forward winners in one pass on tiles equal the fold over every ordinal, for any thread count") {
    constexpr int kPeriods = 8;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const std::uint64_t combinations : {std::uint64_t{1}, std::uint64_t{4095}, std::uint64_t{4097},
                                             std::uint64_t{13000}}) {
        std::mt19937_64 random(combinations);
        std::vector<PeriodStatistics> periods;
        for (std::uint64_t n = 0; n < combinations; ++n) {
            const int kind = static_cast<int>(random() % 6);
            const bool nan_run = n >= 4096 && n < 4200;  // the second tile starts with NaN rows
            double equity = 100.0;
            for (int p = 0; p < kPeriods; ++p) {
                PeriodStatistics period = flat_period(0.001 * static_cast<double>(random() % 4), 10, equity, 1);
                period.return_sum_squares += 1e-6 * static_cast<double>(random() % 3);  // some spread, ties kept
                if (kind == 0) period.return_sum = nan;
                if (kind == 1) period.return_sum = p % 2 == 0 ? -0.0 : 0.0;
                if (nan_run) period.return_sum = nan;
                if (nan_run || kind == 2) period.end_equity = nan;
                periods.push_back(period);
                equity = period.end_equity;
            }
        }
        for (const WalkForwardScore score :
             {WalkForwardScore::Sharpe, WalkForwardScore::Sortino, WalkForwardScore::TotalReturn}) {
            for (const WalkForwardPlan plan :
                 {WalkForwardPlan{WalkForwardWindow::Rolling, 3}, WalkForwardPlan{WalkForwardWindow::Anchored, 1}}) {
                const WalkForwardReport one = walk_forward(periods, kPeriods, plan, score, 1);
                const WalkForwardReport three = walk_forward(periods, kPeriods, plan, score, 3);
                // A one-combination walk-forward of the first row alone scores each step.
                for (std::size_t i = 0; i < one.steps.size(); ++i) {
                    const int oos = one.steps[i].out_of_sample;
                    const int first = one.steps[i].first_in_sample;
                    double best = nan;
                    std::uint64_t winner = 0, ties = 0;
                    for (std::uint64_t n = 0; n < combinations; ++n) {
                        const std::vector<PeriodStatistics> row(periods.begin() + static_cast<std::ptrdiff_t>(n * kPeriods),
                                                                periods.begin() + static_cast<std::ptrdiff_t>((n + 1) * kPeriods));
                        // The row's in-sample score, as walk_forward scores it: a one-row run's step.
                        const WalkForwardReport alone = walk_forward(row, kPeriods, plan, score, 1);
                        const double s = alone.steps[i].in_sample_score;
                        if (n == 0 || (!std::isnan(s) && (std::isnan(best) || s > best))) {
                            best = s;
                            winner = n;
                            ties = 1;
                        } else if (s == best || (std::isnan(s) && std::isnan(best))) {
                            ++ties;
                        }
                    }
                    CAPTURE(combinations);
                    CAPTURE(oos);
                    CAPTURE(first);
                    CHECK(one.steps[i].winner == winner);
                    CHECK(one.steps[i].in_sample_ties == ties);
                    CHECK((one.steps[i].in_sample_score == best ||
                           (std::isnan(one.steps[i].in_sample_score) && std::isnan(best))));
                    CHECK(std::signbit(one.steps[i].in_sample_score) == std::signbit(best));
                    CHECK(three.steps[i].winner == one.steps[i].winner);
                    CHECK(three.steps[i].in_sample_ties == one.steps[i].in_sample_ties);
                }
                CHECK(three.steps.size() == one.steps.size());
                CHECK((three.efficiency == one.efficiency || (std::isnan(three.efficiency) && std::isnan(one.efficiency))));
                CHECK((three.stitched_sharpe == one.stitched_sharpe ||
                       (std::isnan(three.stitched_sharpe) && std::isnan(one.stitched_sharpe))));
            }
        }
    }
}

}  // namespace
}  // namespace btforge
