// Note [Stationary bootstrap]: the draw rule, its block lengths and
// uniformity measured, the counts, and the plans and texts refused.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/validation/stationary_bootstrap.h"

namespace btforge {
namespace {

TEST_CASE("a resample is a run of blocks of consecutive positions, wrapping at T") {
    const StationaryBootstrapPlan plan{50, 6.0, 20, 7};
    for (std::uint64_t b = 0; b < 20; ++b) {
        const std::vector<int> positions = stationary_bootstrap_positions(plan, b);
        REQUIRE(positions.size() == 50);
        for (int p : positions) CHECK((p >= 0 && p < 50));
        CHECK(positions == stationary_bootstrap_positions(plan, b));  // any resample on its own, same bits
    }
    // Resamples differ from each other and with the seed.
    CHECK(stationary_bootstrap_positions(plan, 0) != stationary_bootstrap_positions(plan, 1));
    StationaryBootstrapPlan other = plan;
    other.seed = 8;
    CHECK(stationary_bootstrap_positions(plan, 0) != stationary_bootstrap_positions(other, 0));
}

TEST_CASE("blocks: geometric with mean L; starts: uniform over the positions") {
    const int T = 200;
    const int B = 500;
    struct Case {
        double mean_block;
    };
    for (const Case c : {Case{1.0}, Case{2.5}, Case{10.0}}) {
        CAPTURE(c.mean_block);
        const StationaryBootstrapPlan plan{T, c.mean_block, B, 11};
        long long continued = 0;
        long long draws = 0;
        std::vector<long long> first(T, 0);
        for (int b = 0; b < B; ++b) {
            const std::vector<int> positions = stationary_bootstrap_positions(plan, static_cast<std::uint64_t>(b));
            first[static_cast<std::size_t>(positions[0])] += 1;
            for (int i = 1; i < T; ++i) {
                continued += positions[static_cast<std::size_t>(i)] == (positions[static_cast<std::size_t>(i - 1)] + 1) % T;
                draws += 1;
            }
        }
        // A position continues its block with probability 1 - 1/L (a new
        // uniform start lands on prev + 1 with 1/T more); five standard
        // deviations of the binomial.
        const double p_new = 1.0 / c.mean_block;
        const double expected = static_cast<double>(draws) * ((1.0 - p_new) + p_new / T);
        const double sd = std::sqrt(static_cast<double>(draws) * 0.25);
        CHECK(std::abs(static_cast<double>(continued) - expected) < 5.0 * sd + 1e-9);
        if (c.mean_block == 1.0) CHECK(continued < draws / 50);  // every position a new start
        // The first positions: chi-square over T cells, mean T - 1, sd sqrt(2(T - 1)) ~ 20.
        double chi2 = 0.0;
        const double per_cell = static_cast<double>(B) / T;
        for (long long n : first) chi2 += (static_cast<double>(n) - per_cell) * (static_cast<double>(n) - per_cell) / per_cell;
        CHECK(chi2 < (T - 1) + 6.0 * std::sqrt(2.0 * (T - 1)));
    }
}

TEST_CASE("counts: how often each position is drawn, T per resample") {
    const StationaryBootstrapPlan plan{30, 4.0, 12, 3};
    const BootstrapCounts counts = stationary_bootstrap_counts(plan);
    REQUIRE(counts.counts.size() == 30 * 12);
    for (int b = 0; b < 12; ++b) {
        const std::span<const std::uint32_t> row = counts.of(b);
        CHECK(std::accumulate(row.begin(), row.end(), 0u) == 30u);
        std::vector<std::uint32_t> expected(30, 0);
        for (int p : stationary_bootstrap_positions(plan, static_cast<std::uint64_t>(b))) expected[static_cast<std::size_t>(p)] += 1;
        CHECK(std::vector<std::uint32_t>(row.begin(), row.end()) == expected);
    }
    const BootstrapCounts given = bootstrap_counts_of(3, {{0, 0, 2}, {1, 2, 0}});
    CHECK(given.counts == std::vector<std::uint32_t>{2, 0, 1, 1, 1, 1});
    CHECK_THROWS_WITH_AS(bootstrap_counts_of(3, {{0, 1}}), "resample 0 has 2 positions, not 3", std::invalid_argument);
    CHECK_THROWS_WITH_AS(bootstrap_counts_of(3, {{0, 1, 3}}), "resample 0 draws position 3 outside [0, 3)",
                         std::invalid_argument);
}

TEST_CASE("plans and texts refused") {
    CHECK(check_bootstrap_plan({10, 2.0, 5, 0}).empty());
    CHECK(check_bootstrap_plan({0, 2.0, 5, 0}) == "the bootstrap needs at least one observation, got 0");
    CHECK(check_bootstrap_plan({10, 0.5, 5, 0}).rfind("the mean block length must be a number >= 1", 0) == 0);
    CHECK(check_bootstrap_plan({10, NAN, 5, 0}).rfind("the mean block length must be a number >= 1", 0) == 0);
    CHECK(check_bootstrap_plan({10, 2.0, 0, 0}) == "the bootstrap needs at least one resample, got 0");
    CHECK_THROWS_AS(stationary_bootstrap_counts({10, 2.0, 0, 0}), std::invalid_argument);

    struct Case {
        const char* text;
        int resamples;
        double mean_block;  // 0: none given
        const char* error;  // nullptr: accepted
    };
    const Case cases[] = {
        {"1000", 1000, 0.0, nullptr},
        {"500:4", 500, 4.0, nullptr},
        {"200:2.5", 200, 2.5, nullptr},
        {"0", 0, 0.0, "expected B or B:L (B resamples >= 1, L mean block length >= 1), got '0'"},
        {"", 0, 0.0, "expected B or B:L (B resamples >= 1, L mean block length >= 1), got ''"},
        {"10:0.5", 0, 0.0, "the mean block length L must be a number >= 1, got '0.5'"},
        {"10:x", 0, 0.0, "the mean block length L must be a number >= 1, got 'x'"},
        {"10:inf", 0, 0.0, "the mean block length L must be a number >= 1, got 'inf'"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.text);
        std::string error;
        const std::optional<BootstrapText> parsed = parse_bootstrap(c.text, &error);
        if (c.error == nullptr) {
            REQUIRE(parsed.has_value());
            CHECK(parsed->resamples == c.resamples);
            CHECK(parsed->mean_block.value_or(0.0) == c.mean_block);
        } else {
            CHECK(!parsed.has_value());
            CHECK(error == c.error);
        }
    }
    CHECK(default_mean_block(1) == 1.0);
    CHECK(default_mean_block(16) == 4.0);
    CHECK(default_mean_block(255) == 15.0);
    CHECK(default_mean_block(256) == 16.0);
}

}  // namespace
}  // namespace btforge
