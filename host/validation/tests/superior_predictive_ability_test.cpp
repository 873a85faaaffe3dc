// Note [Reality Check, SPA and StepM]: cases worked by hand, what does not
// change the result (threads, duplicated or reordered combinations), the
// variance against its definition, and what is refused or undefined. arch
// itself is the oracle in parity-tests/oracles.
#include <doctest/doctest.h>

#include <cmath>
#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "host/validation/superior_predictive_ability.h"

namespace btforge {
namespace {

Differentials of(const std::vector<double>& values, std::uint64_t count, int observations) {
    return Differentials{values, count, observations};
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_same(const SpaReport& a, const SpaReport& b) {
    CHECK(a.combinations == b.combinations);
    CHECK(a.best == b.best);
    CHECK(same_bits(a.best_mean, b.best_mean));
    CHECK(same_bits(a.pvalue_lower, b.pvalue_lower));
    CHECK(same_bits(a.pvalue_consistent, b.pvalue_consistent));
    CHECK(same_bits(a.pvalue_upper, b.pvalue_upper));
    CHECK(same_bits(a.critical_value, b.critical_value));
    CHECK(a.superior == b.superior);
    CHECK(a.steps == b.steps);
}

TEST_CASE("worked by hand: one lucky period against a steady edge") {
    // A = [3, 0, 0] and B = [1, 1, 1]: both mean 1. The three resamples
    // each draw one period three times: A's resampled means are 3, 0, 0 and
    // B's 1, 1, 1; recentred by the means (both >= 0, so every recentering
    // is the same), the maxima are max(2, 0), max(-1, 0), max(-1, 0) = 2, 0, 0.
    // One of three exceeds the observed best mean 1: every p-value is 1/3.
    // StepM's critical value: numpy's 95th percentile of [0, 0, 2] is
    // 2 - 2 * 0.1 = 1.8 (index 1.9), above both means: nothing superior.
    const std::vector<double> d = {3, 0, 0, 1, 1, 1};
    const BootstrapCounts resamples = bootstrap_counts_of(3, {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}});
    const SpaReport r = superior_predictive_ability(of(d, 2, 3), resamples, SpaOptions{2.0, 0.05, 1});
    CHECK(r.undefined == nullptr);
    CHECK(r.combinations == 2);
    CHECK(r.best == 0);  // the first of equal means
    CHECK(r.best_mean == 1.0);
    CHECK(r.pvalue_lower == 1.0 / 3.0);
    CHECK(r.pvalue_consistent == r.pvalue_lower);
    CHECK(r.pvalue_upper == r.pvalue_lower);
    CHECK(r.critical_value == doctest::Approx(1.8).epsilon(1e-15));
    CHECK(r.superior.empty());
    CHECK(r.steps == 1);
}

TEST_CASE("worked by hand: a certain edge is superior, then nothing more") {
    // A = [5, 5, 5], B = [0, 0, 0]: every resample leaves both means as they
    // are, so every recentred maximum is 0 and no p-value can be above 0.
    // StepM: the critical value 0 < 5 names A; over B alone (mean 0,
    // variance 0, so its threshold is -0 and it is recentred at 0) the
    // maxima are 0 again and 0 > 0 is false: {A} after two passes.
    const std::vector<double> d = {5, 5, 5, 0, 0, 0};
    const BootstrapCounts resamples = bootstrap_counts_of(3, {{0, 1, 2}, {2, 2, 0}, {1, 0, 0}, {2, 1, 1}});
    const SpaReport r = superior_predictive_ability(of(d, 2, 3), resamples, SpaOptions{1.0, 0.1, 1});
    CHECK(r.pvalue_lower == 0.0);
    CHECK(r.pvalue_consistent == 0.0);
    CHECK(r.pvalue_upper == 0.0);
    CHECK(r.critical_value == 0.0);
    CHECK(r.superior == std::vector<std::uint64_t>{0});
    CHECK(r.steps == 2);
}

TEST_CASE("worked by hand: a far worse combination is recentred only by the upper p-value") {
    // A = [3, 0, 0] (mean 1), B = [-9, -9, -9] (mean -9, variance 0, so its
    // threshold is -0 and -9 is below it). Resamples: period 0, 1, 2 three
    // times each. A's recentred values: 2, -1, -1. B's: 0 on every resample
    // for the upper p-value (centre -9); -9 for the consistent and the lower
    // ones (centre 0). Maxima: upper 2, 0, 0; consistent 2, -1, -1. Either
    // way 1 of 3 above the best mean 1. StepM takes the consistent maxima:
    // the 95th percentile of [-1, -1, 2] is 2 - 3 * 0.1 = 1.7 (the upper
    // ones would give 1.8), above 1: nothing superior.
    const std::vector<double> d = {3, 0, 0, -9, -9, -9};
    const BootstrapCounts resamples = bootstrap_counts_of(3, {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}});
    const SpaReport r = superior_predictive_ability(of(d, 2, 3), resamples, SpaOptions{2.0, 0.05, 1});
    CHECK(r.pvalue_consistent == 1.0 / 3.0);
    CHECK(r.pvalue_upper == 1.0 / 3.0);
    CHECK(r.critical_value == doctest::Approx(1.7).epsilon(1e-15));
    CHECK(r.superior.empty());
}

TEST_CASE("the variance: arch's closed form, against its definition summed directly") {
    // ω² = γ0 + 2 Σ_{i>=1} κ_i γ_i, γ_i = Σ_{s<T-i} x̃_s x̃_{s+i} / T,
    // κ_i = (1 - i/T)(1 - p)^i + (i/T)(1 - p)^(T - i).
    const std::vector<double> x = {0.3, -1.2, 0.8, 2.0, -0.5, 0.1, 0.0};
    const int T = 7;
    const double p = 1.0 / 3.0;
    double mean = 0.0;
    for (double v : x) mean += v / T;
    double expected = 0.0;
    for (int i = 0; i < T; ++i) {
        double gamma = 0.0;
        for (int s = 0; s + i < T; ++s) gamma += (x[s] - mean) * (x[s + i] - mean);
        gamma /= T;
        const double kappa = i == 0 ? 0.5 : (1.0 - double(i) / T) * std::pow(1.0 - p, i) + (double(i) / T) * std::pow(1.0 - p, T - i);
        expected += 2.0 * kappa * gamma;
    }
    const std::vector<double> variance = stationary_bootstrap_variances(of(x, 1, T), 3.0);
    REQUIRE(variance.size() == 1);
    CHECK(variance[0] == doctest::Approx(expected).epsilon(1e-14));
    // L = 1 (p = 1): the bootstrap of independent draws, the sample variance.
    double gamma0 = 0.0;
    for (double v : x) gamma0 += (v - mean) * (v - mean) / T;
    CHECK(stationary_bootstrap_variances(of(x, 1, T), 1.0)[0] == doctest::Approx(gamma0).epsilon(1e-14));
}

std::vector<double> random_streams(std::uint64_t count, int T, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    std::vector<double> d(count * static_cast<std::uint64_t>(T));
    for (std::uint64_t k = 0; k < count; ++k) {
        const double edge = 0.05 * static_cast<double>(k % 7) - 0.1;
        for (int t = 0; t < T; ++t) d[k * T + t] = edge + noise(rng);
    }
    return d;
}

TEST_CASE("the same bits for any thread count, and with combinations repeated or reordered") {
    const int T = 40;
    const std::uint64_t K = 61;  // not a multiple of the tile
    const std::vector<double> d = random_streams(K, T, 5);
    const BootstrapCounts resamples = stationary_bootstrap_counts({T, 4.0, 300, 9});
    const SpaReport one = superior_predictive_ability(of(d, K, T), resamples, SpaOptions{4.0, 0.1, 1});
    const SpaReport four = superior_predictive_ability(of(d, K, T), resamples, SpaOptions{4.0, 0.1, 4});
    check_same(one, four);
    CHECK(one.pvalue_consistent < 1.0);

    // Every combination twice, the copies after the originals: the maxima
    // are the same, so are the p-values and the critical value; the superior
    // set names both copies.
    std::vector<double> twice = d;
    twice.insert(twice.end(), d.begin(), d.end());
    const SpaReport doubled = superior_predictive_ability(of(twice, 2 * K, T), resamples, SpaOptions{4.0, 0.1, 3});
    CHECK(same_bits(doubled.pvalue_consistent, one.pvalue_consistent));
    CHECK(same_bits(doubled.pvalue_upper, one.pvalue_upper));
    CHECK(same_bits(doubled.critical_value, one.critical_value));
    CHECK(doubled.superior.size() == 2 * one.superior.size());

    // Reversed order: the same numbers, the indices mirrored.
    std::vector<double> reversed(d.size());
    for (std::uint64_t k = 0; k < K; ++k) {
        std::copy_n(d.begin() + static_cast<std::ptrdiff_t>(k * T), T, reversed.begin() + static_cast<std::ptrdiff_t>((K - 1 - k) * T));
    }
    const SpaReport mirrored = superior_predictive_ability(of(reversed, K, T), resamples, SpaOptions{4.0, 0.1, 2});
    CHECK(same_bits(mirrored.pvalue_lower, one.pvalue_lower));
    CHECK(same_bits(mirrored.critical_value, one.critical_value));
    CHECK(mirrored.best == K - 1 - one.best);
}

TEST_CASE("planted edges are found, noise is not") {
    const int T = 250;
    const std::uint64_t K = 40;
    std::mt19937_64 rng(17);
    std::normal_distribution<double> noise(0.0, 1.0);
    std::vector<double> d(K * T);
    for (std::uint64_t k = 0; k < K; ++k) {
        const double edge = k < 3 ? 0.6 : 0.0;  // three strong edges
        for (int t = 0; t < T; ++t) d[k * T + t] = edge + noise(rng);
    }
    const BootstrapCounts resamples = stationary_bootstrap_counts({T, 5.0, 500, 1});
    const SpaReport edges = superior_predictive_ability(of(d, K, T), resamples, SpaOptions{5.0, 0.05, 2});
    CHECK(edges.pvalue_consistent < 0.01);
    CHECK(edges.superior == std::vector<std::uint64_t>{0, 1, 2});

    for (std::uint64_t k = 0; k < 3; ++k) {
        for (int t = 0; t < T; ++t) d[k * T + t] -= 0.6;
    }
    const SpaReport none = superior_predictive_ability(of(d, K, T), resamples, SpaOptions{5.0, 0.05, 2});
    CHECK(none.pvalue_consistent > 0.05);
    CHECK(none.superior.empty());
}

TEST_CASE("left out, undefined and refused") {
    std::vector<double> d = {1, 2, 3, NAN, 0, 0, 0.5, 0.5, 0.25};
    const BootstrapCounts resamples = stationary_bootstrap_counts({3, 1.0, 50, 2});
    const SpaReport r = superior_predictive_ability(of(d, 3, 3), resamples, SpaOptions{1.0, 0.05, 1});
    CHECK(r.combinations == 2);
    CHECK(r.left_out == 1);
    CHECK(r.best == 0);
    CHECK(std::find(r.superior.begin(), r.superior.end(), 1) == r.superior.end());

    const std::vector<double> nothing = {NAN, 1, 1};
    const SpaReport none = superior_predictive_ability(of(nothing, 1, 3), resamples, SpaOptions{1.0, 0.05, 1});
    CHECK(none.undefined == kSpaNoCombination);
    CHECK(std::isnan(none.pvalue_consistent));

    const std::vector<double> short_streams = {1, 2, 3, 4};
    const SpaReport too_short = superior_predictive_ability(of(short_streams, 2, 2),
                                                            stationary_bootstrap_counts({2, 1.0, 10, 2}), SpaOptions{});
    CHECK(too_short.undefined == kSpaTooFewObservations);
    CHECK(std::isnan(too_short.pvalue_upper));

    CHECK_THROWS_AS(superior_predictive_ability(of(d, 2, 3), resamples, SpaOptions{}), std::invalid_argument);
    CHECK_THROWS_AS(superior_predictive_ability(of(d, 3, 3), stationary_bootstrap_counts({4, 1.0, 5, 0}), SpaOptions{}),
                    std::invalid_argument);
    CHECK_THROWS_AS(superior_predictive_ability(of(d, 3, 3), resamples, SpaOptions{1.0, 1.0, 1}), std::invalid_argument);
    CHECK_THROWS_AS(superior_predictive_ability(of(d, 3, 3), resamples, SpaOptions{0.5, 0.05, 1}), std::invalid_argument);
}

TEST_CASE("numpy's linear percentile") {
    CHECK(linear_percentile({3, 1, 2}, 50) == 2.0);
    CHECK(linear_percentile({0, 10}, 25) == 2.5);
    CHECK(linear_percentile({0, 10}, 75) == 7.5);  // the b - (b - a)(1 - g) side
    CHECK(linear_percentile({4}, 95) == 4.0);
    CHECK(linear_percentile({1, 2, 3, 4, 5}, 100) == 5.0);
    CHECK(linear_percentile({1, 2, 3, 4, 5}, 0) == 1.0);
}

}  // namespace
}  // namespace btforge
