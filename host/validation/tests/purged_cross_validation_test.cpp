// Note [Combinatorial purged cross-validation]: the splits and their
// purge and embargo as tables, the paths, a case worked by hand, and the
// plans that are refused.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/validation/purged_cross_validation.h"
#include "host/validation/tests/period_of_returns.h"

namespace btforge {
namespace {

TEST_CASE("test masks: every k of S periods, in increasing order") {
    CHECK(purged_cv_test_masks(1, 3) == std::vector<std::uint32_t>{0b001, 0b010, 0b100});
    CHECK(purged_cv_test_masks(2, 4) == std::vector<std::uint32_t>{0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100});
    CHECK(purged_cv_test_masks(2, 16).size() == 120);
    CHECK(purged_cv_test_masks(3, 16).size() == 560);
    CHECK(purged_cv_test_masks(0, 4).empty());
    CHECK(purged_cv_test_masks(5, 4).empty());
}

TEST_CASE("in-sample masks: the untested periods less E on each side of every tested block") {
    struct Case {
        std::uint32_t test;
        int periods;
        int embargo;
        std::uint32_t in_sample;
    };
    const Case cases[] = {
        {0b000001, 6, 0, 0b111110},  // no embargo: every other period
        {0b000001, 6, 1, 0b111100},  // the first period: only its right side
        {0b100000, 6, 1, 0b001111},  // the last: only its left side
        {0b000100, 6, 1, 0b110001},  // inside: both sides
        {0b000100, 6, 2, 0b100000},
        {0b001100, 6, 1, 0b100001},  // a block of two: around the block
        {0b010010, 6, 1, 0b000000},  // two blocks, their embargoes meet: nothing left
        {0b100001, 6, 1, 0b001100},  // both ends
        {0b000011, 4, 2, 0b0000},
    };
    for (const Case& c : cases) {
        CAPTURE(c.test);
        CAPTURE(c.embargo);
        CHECK(purged_cv_in_sample_mask(c.test, c.periods, c.embargo) == c.in_sample);
    }
}

TEST_CASE("plans: K and K:E parsed, refused with their reason") {
    std::string why;
    const auto two = parse_purged_cv("2", &why);
    REQUIRE(two);
    CHECK(two->test_periods == 2);
    CHECK(two->embargo == 1);
    const auto three = parse_purged_cv("3:0", &why);
    REQUIRE(three);
    CHECK(three->test_periods == 3);
    CHECK(three->embargo == 0);
    CHECK(describe_purged_cv(*three) == "3:0");
    for (const char* bad : {"", "0", "-1", "x", "2:", "2:-1", "2:1:1", "2.5"}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_purged_cv(bad, &why));
    }
    CHECK(check_purged_cv_plan({2, 1}, 16).empty());
    CHECK(check_purged_cv_plan({4, 0}, 4).find("1 <= K < 4") != std::string::npos);
    CHECK(check_purged_cv_plan({2, 1}, 4).find("testing periods 0,2 of 4 has no in-sample period") !=
          std::string::npos);
    CHECK(check_purged_cv_plan({1, 1}, 4).empty());
    // Testing the middle one of three, its embargo takes both others.
    CHECK(check_purged_cv_plan({1, 1}, 3).find("testing periods 1 of 3 has no in-sample period") != std::string::npos);
}

// Three combinations over four periods of two bars, k = 2, no embargo: six
// splits (tested {0,1}, {0,2}, {1,2}, {0,3}, {1,3}, {2,3}), three paths.
// Per period, "up" has Sharpe 3, "down" -2 and C's bars -1. A is up in
// periods 0-1 and down in 2-3, B the reverse. In-sample {2,3} (the first
// split): B, Sharpe 3. In-sample {0,1} (the last): A. Every other split
// has one up and one down period of A and of B in-sample: the same sums
// (addition commutes), Sharpe 0.005 / sqrt(0.000725) > 0 > C's -1, a tie
// that goes to the smaller index, A.
TEST_CASE("hand-worked: winners, paths and their Sharpe ratios") {
    const std::vector<double> up = {0.02, 0.04};      // mean 0.03, deviation 0.01: Sharpe 3
    const std::vector<double> down = {-0.01, -0.03};  // Sharpe -2
    const std::vector<double> weak = {-0.001, 0.0};   // Sharpe -1
    const std::vector<PeriodStatistics> returns = {
        period_of(up),   period_of(up),   period_of(down), period_of(down),  // A
        period_of(down), period_of(down), period_of(up),   period_of(up),    // B
        period_of(weak), period_of(weak), period_of(weak), period_of(weak),  // C
    };
    const PurgedCvReport r = combinatorial_purged_cv(returns, 4, {2, 0}, {});
    REQUIRE(r.splits.size() == 6);
    REQUIRE(r.paths.size() == 3);
    const std::uint64_t expected[] = {1, 0, 0, 0, 0, 0};
    for (std::size_t s = 0; s < 6; ++s) {
        CAPTURE(s);
        CHECK(r.splits[s].winner == expected[s]);
        CHECK(r.splits[s].in_sample_mask == (0b1111u & ~r.splits[s].test_mask));
    }
    // Period p is tested by splits (in order): 0: {0,1,3}; 1: {0,2,4}; 2: {1,2,5}; 3: {3,4,5}.
    CHECK(r.paths[0].splits == std::vector<int>{0, 0, 1, 3});
    CHECK(r.paths[1].splits == std::vector<int>{1, 2, 2, 4});
    CHECK(r.paths[2].splits == std::vector<int>{3, 4, 5, 5});
    // Path 0: B in 0 and 1 (down, down), A in 2 and 3 (down, down): all down: Sharpe -2.
    CHECK(r.paths[0].sharpe == doctest::Approx(-2.0));
    // Paths 1 and 2: A throughout: up, up, down, down: mean 0.005, population
    // variance of 0.02, 0.04, 0.02, 0.04, -0.01, -0.03, -0.01, -0.03.
    const double mean = 0.005;
    const double variance = (2 * (0.02 * 0.02 + 0.04 * 0.04 + 0.01 * 0.01 + 0.03 * 0.03)) / 8.0 - mean * mean;
    CHECK(r.paths[1].sharpe == doctest::Approx(mean / std::sqrt(variance)));
    CHECK(r.paths[2].sharpe == doctest::Approx(mean / std::sqrt(variance)));
    CHECK(r.paths[0].bars == 8);
    CHECK(r.mean_sharpe == doctest::Approx((-2.0 + 2.0 * mean / std::sqrt(variance)) / 3.0));
    CHECK(r.min_sharpe == doctest::Approx(-2.0));
    CHECK(r.share_not_positive == doctest::Approx(1.0 / 3.0));
    CHECK(r.selection_undefined == nullptr);
}

TEST_CASE("one combination: every path is its own, and nothing was selected") {
    const std::vector<PeriodStatistics> returns = {period_of({0.01, 0.03}), period_of({0.02, -0.01}),
                                                   period_of({0.0, 0.01})};
    const PurgedCvReport r = combinatorial_purged_cv(returns, 3, {1, 0}, {});
    REQUIRE(r.paths.size() == 1);
    CHECK(r.selection_undefined != nullptr);
    CHECK(r.sharpe_deviation == 0.0);
    CHECK(r.min_sharpe == r.max_sharpe);
}

TEST_CASE("refused: a plan that leaves a split nothing in-sample, a ragged matrix") {
    const std::vector<PeriodStatistics> four(8, period_of({0.01, 0.02}));
    CHECK_THROWS_AS(combinatorial_purged_cv(four, 4, {2, 2}, {}), std::invalid_argument);
    CHECK_THROWS_AS(combinatorial_purged_cv(four, 4, {4, 0}, {}), std::invalid_argument);
    const std::vector<PeriodStatistics> ragged(7, period_of({0.01, 0.02}));
    CHECK_THROWS_AS(combinatorial_purged_cv(ragged, 4, {2, 0}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace btforge
