// Note [Effective number of trials]: planted families of return streams are
// found, whatever the sample, the duplicates or the threads; silhouettes
// and qualities on points worked by hand; what is left out or flat.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "host/validation/effective_trials.h"

namespace btforge {
namespace {

// `families` groups of `members` streams of length t: a family's common
// factor plus noise of weight `noise` (the correlation within a family is
// about 1 / (1 + noise^2), across families about 0).
std::vector<double> planted_streams(int families, int members, int t, double noise, unsigned seed) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal(0.0, 0.01);
    std::vector<double> factors(static_cast<std::size_t>(families) * t);
    for (double& f : factors) f = normal(random);
    std::vector<double> streams;
    for (int f = 0; f < families; ++f) {
        for (int j = 0; j < members; ++j) {
            for (int i = 0; i < t; ++i) streams.push_back(factors[static_cast<std::size_t>(f) * t + i] + noise * normal(random));
        }
    }
    return streams;
}

// The clusters' members group exactly as the families do.
void check_families(const TrialClusters& c, int families, int members) {
    REQUIRE(c.clusters.size() == static_cast<std::size_t>(families));
    std::set<std::uint32_t> used;
    for (int f = 0; f < families; ++f) {
        const std::uint32_t label = c.cluster_of[static_cast<std::size_t>(f) * members];
        CHECK(used.insert(label).second);
        for (int j = 0; j < members; ++j) CHECK(c.cluster_of[static_cast<std::size_t>(f) * members + j] == label);
        CHECK(c.clusters[label].members == static_cast<std::uint64_t>(members));
        const std::uint64_t r = c.clusters[label].representative;
        CHECK(r >= static_cast<std::uint64_t>(f) * members);
        CHECK(r < static_cast<std::uint64_t>(f + 1) * members);
    }
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST_CASE("planted families of return streams are the clusters") {
    for (const int families : {2, 3, 5, 8}) {
        CAPTURE(families);
        const int members = 24, t = 128;
        const std::vector<double> s = planted_streams(families, members, t, 0.5, 7u + families);
        const TrialClusters c = cluster_trials(s, families * members, t, TrialClusterOptions{});
        CHECK(c.left_out == 0);
        CHECK(c.sampled == static_cast<std::uint64_t>(families * members));
        CHECK(c.quality > 1.0);
        check_families(c, families, members);
    }
}

TEST_CASE("a sample smaller than the trials finds the same families; every trial joins its own") {
    const int families = 4, members = 200, t = 64;
    const std::vector<double> s = planted_streams(families, members, t, 0.6, 11u);
    TrialClusterOptions options;
    options.sample = 40;
    const TrialClusters c = cluster_trials(s, families * members, t, options);
    CHECK(c.sampled == 40);
    check_families(c, families, members);
}

TEST_CASE("the same bits for any thread count and the same clusters for any seed on clear families") {
    const int families = 6, members = 30, t = 96;
    const std::vector<double> s = planted_streams(families, members, t, 0.7, 3u);
    TrialClusterOptions one;
    one.sample = 100;
    TrialClusterOptions four = one;
    four.threads = 4;
    const TrialClusters a = cluster_trials(s, families * members, t, one);
    const TrialClusters b = cluster_trials(s, families * members, t, four);
    CHECK(a.cluster_of == b.cluster_of);
    CHECK(same_bits(a.quality, b.quality));
    REQUIRE(a.clusters.size() == b.clusters.size());
    for (std::size_t i = 0; i < a.clusters.size(); ++i) {
        CHECK(a.clusters[i].members == b.clusters[i].members);
        CHECK(a.clusters[i].representative == b.clusters[i].representative);
    }
    for (const std::uint64_t seed : {1ull, 99ull, 123456789ull}) {
        TrialClusterOptions other = one;
        other.seed = seed;
        check_families(cluster_trials(s, families * members, t, other), families, members);
    }
}

TEST_CASE("duplicated streams are one trial in the sample and every copy joins its cluster") {
    const int families = 3, members = 10, t = 64, copies = 5;
    const std::vector<double> s = planted_streams(families, members, t, 0.5, 5u);
    std::vector<double> repeated;
    for (int f = 0; f < families; ++f) {
        for (int j = 0; j < members; ++j) {
            for (int copy = 0; copy < copies; ++copy) {
                const auto from = s.begin() + (static_cast<std::ptrdiff_t>(f) * members + j) * t;
                repeated.insert(repeated.end(), from, from + t);
            }
        }
    }
    const TrialClusters c = cluster_trials(repeated, families * members * copies, t, TrialClusterOptions{});
    CHECK(c.sampled == static_cast<std::uint64_t>(families * members));
    check_families(c, families, members * copies);
}

TEST_CASE("streams without variance are one cluster of their own; streams not finite are left out") {
    const int families = 2, members = 12, t = 32;
    std::vector<double> s = planted_streams(families, members, t, 0.4, 9u);
    // Three flat streams (one all zero: never traded; one a constant
    // return), one with a NaN.
    s.insert(s.end(), static_cast<std::size_t>(t), 0.0);
    s.insert(s.end(), static_cast<std::size_t>(t), 0.001);
    s.insert(s.end(), static_cast<std::size_t>(t), 0.0);
    std::vector<double> broken(static_cast<std::size_t>(t), 0.01);
    broken[3] = std::nan("");
    s.insert(s.end(), broken.begin(), broken.end());
    const std::uint64_t n = families * members + 4;
    const TrialClusters c = cluster_trials(s, n, t, TrialClusterOptions{});
    REQUIRE(c.clusters.size() == 3);
    CHECK(c.left_out == 1);
    CHECK(c.cluster_of[n - 1] == kNoCluster);
    const TrialCluster& flat = c.clusters.back();
    CHECK(flat.flat);
    CHECK(flat.members == 3);
    CHECK(flat.representative == families * members);  // the smallest ordinal
    for (std::uint64_t i = families * members; i < n - 1; ++i) CHECK(c.cluster_of[i] == 2);
    CHECK_FALSE(c.clusters[0].flat);
}

TEST_CASE("worked by hand: two tight pairs far apart, and one pair split") {
    // Four unit vectors: a, a' nearly equal, b, b' nearly equal, a orthogonal
    // to b. Gram: 1 on the diagonal, g within a pair, 0 across; ONC's
    // distance within a pair w = sqrt((1 - g) / 2), across sqrt(1/2).
    // k = 2, the pairs: every silhouette is s = (sqrt(1/2) - w) / sqrt(1/2),
    // a deviation of 0 and a positive mean: quality +inf. k = 3 (m - 1)
    // splits a pair: silhouettes 0, 0, s, s, a quality of (s/2) / (s/2) = 1.
    // ONC keeps k = 2; each pair's own quality is +inf, none is below the
    // mean, nothing is clustered again.
    const double g = 0.98;
    const std::vector<double> gram = {1, g, 0, 0, g, 1, 0, 0, 0, 0, 1, g, 0, 0, g, 1};
    const OncLabelling l = optimal_number_of_clusters(gram, 4, TrialClusterOptions{});
    CHECK(l.clusters == 2);
    CHECK(l.quality == HUGE_VAL);
    CHECK(l.labels[0] == l.labels[1]);
    CHECK(l.labels[2] == l.labels[3]);
    CHECK(l.labels[0] != l.labels[2]);
}

TEST_CASE("worked by hand: three points on a line") {
    // Unit vectors at angles 0, t and 2t in a plane: rho(0, t) = cos t,
    // rho(0, 2t) = cos 2t. Only k = 2 is tried (m - 1 = 2). k-means puts
    // the middle point with one end; say {0, t} and {2t} (or its mirror):
    // silhouettes: the singleton 0; point 0: a = d1, b = d2, s = 1 - d1/d2;
    // point t: a = d1, b = d1 -> 0. Qualities: mean (1 - d1/d2)/3 over a
    // deviation, whatever the split's side; ONC returns 2 clusters.
    const double t = 0.3;
    const std::vector<double> gram = {1, std::cos(t), std::cos(2 * t), std::cos(t), 1, std::cos(t),
                                      std::cos(2 * t), std::cos(t), 1};
    const OncLabelling l = optimal_number_of_clusters(gram, 3, TrialClusterOptions{});
    CHECK(l.clusters == 2);
    CHECK(l.labels[0] != l.labels[2]);
    const double d1 = std::sqrt((1 - std::cos(t)) / 2), d2 = std::sqrt((1 - std::cos(2 * t)) / 2);
    const double s0 = 1 - d1 / d2;  // the end point beside the middle
    const double mean = s0 / 3;
    const double deviation = std::sqrt(((s0 - mean) * (s0 - mean) + 2 * mean * mean) / 3);
    CHECK(l.quality == doctest::Approx(mean / deviation).epsilon(1e-12));
}

TEST_CASE("fewer than three distinct streams are each their own cluster") {
    const std::vector<double> gram = {1, 0.5, 0.5, 1};
    const OncLabelling l = optimal_number_of_clusters(gram, 2, TrialClusterOptions{});
    CHECK(l.clusters == 2);
    CHECK(l.labels == std::vector<int>{0, 1});
    const std::vector<double> s = {0.01, -0.01, 0.02, 0.0, 0.03, -0.02, 0.01, 0.0};
    const TrialClusters c = cluster_trials(s, 2, 4, TrialClusterOptions{});
    CHECK(c.clusters.size() == 2);
}

TEST_CASE("refused: streams that are not whole rows, a sample out of range") {
    const std::vector<double> s(10, 0.0);
    CHECK_THROWS_AS(cluster_trials(s, 3, 3, TrialClusterOptions{}), std::invalid_argument);
    TrialClusterOptions tiny;
    tiny.sample = 2;
    CHECK_THROWS_AS(cluster_trials(s, 2, 5, tiny), std::invalid_argument);
    CHECK_THROWS_AS(optimal_number_of_clusters(s, 3, TrialClusterOptions{}), std::invalid_argument);
}

}  // namespace
}  // namespace btforge
