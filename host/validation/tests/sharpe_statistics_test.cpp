// The Sharpe-ratio statistics: Φ and Φ⁻¹ against published values, the
// worked example of the Deflated Sharpe Ratio paper, and Monte Carlo runs
// of strategies without and with an edge (fixed seeds, tolerances stated).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "host/validation/sharpe_statistics.h"

namespace btforge {
namespace {

struct QuantileCase {
    double p;
    double x;  // Φ⁻¹(p), from tables computed to 20 digits
};

TEST_CASE("normal_quantile inverts normal_cdf to 1e-14") {
    const QuantileCase cases[] = {
        {0.5, 0.0},
        {0.975, 1.959963984540054},
        {0.99, 2.326347874040841},
        {0.999, 3.090232306167814},
        {0.025, -1.959963984540054},
        {1e-10, -6.361340902404056},
        {1e-6, -4.753424308822899},
        {0.8413447460685429, 1.0},
    };
    for (const QuantileCase& c : cases) {
        CAPTURE(c.p);
        CHECK(normal_quantile(c.p) == doctest::Approx(c.x).epsilon(1e-14).scale(1.0));
        if (c.x != 0.0) CHECK(normal_cdf(c.x) == doctest::Approx(c.p).epsilon(1e-14));
    }
    CHECK(normal_quantile(0.0) == -std::numeric_limits<double>::infinity());
    CHECK(normal_quantile(1.0) == std::numeric_limits<double>::infinity());
    CHECK(std::isnan(normal_quantile(-0.1)));
    CHECK(std::isnan(normal_quantile(std::numeric_limits<double>::quiet_NaN())));
    CHECK(normal_cdf(0.0) == 0.5);
}

// Bailey and López de Prado, "The Deflated Sharpe Ratio" (2014), section 5
// (a numerical example): 100 trials whose annualized Sharpe ratios vary with
// variance 1/2, the best one annualized 2.5 over 5 years of daily returns
// (T = 1250, 250 a year) with skewness -3 and kurtosis 10. The paper finds
// the expected maximum (the benchmark) SR0 = 0.1132 per day and DSR = 0.9004.
TEST_CASE("the Deflated Sharpe Ratio paper's numerical example") {
    const double days = 250.0;
    const double benchmark = expected_maximum_sharpe(100.0, 0.5 / days);
    CHECK(benchmark == doctest::Approx(0.1132).epsilon(0.5e-4 / 0.1132));
    const ReturnMoments best{2.5 / std::sqrt(days), -3.0, 10.0, 1250};
    const double dsr = deflated_sharpe_ratio(best, 100.0, 0.5 / days);
    CHECK(dsr == doctest::Approx(0.9004).epsilon(0.5e-4 / 0.9004));
    CHECK(dsr == doctest::Approx(probabilistic_sharpe_ratio(best, benchmark)));
}

TEST_CASE("PSR: the edge cases and the normal-returns form") {
    const ReturnMoments normal{0.1, 0.0, 3.0, 401};
    CHECK(probabilistic_sharpe_ratio(normal, 0.1) == 0.5);
    // Normal returns: z = (SR - SR*) sqrt(n - 1) / sqrt(1 + SR^2 / 2).
    CHECK(probabilistic_sharpe_ratio(normal, 0.0) == doctest::Approx(normal_cdf(0.1 * 20.0 / std::sqrt(1.005))));
    // Negative skewness and fat tails widen the estimator: less confidence.
    CHECK(probabilistic_sharpe_ratio(ReturnMoments{0.1, -2.0, 9.0, 401}, 0.0) <
          probabilistic_sharpe_ratio(normal, 0.0));
    CHECK(std::isnan(probabilistic_sharpe_ratio(ReturnMoments{0.1, 0.0, 3.0, 1}, 0.0)));
    CHECK(std::isnan(probabilistic_sharpe_ratio(ReturnMoments{2.0, 5.0, 1.0, 100}, 0.0)));
    CHECK(expected_maximum_sharpe(1.0, 0.3) == 0.0);
    CHECK(expected_maximum_sharpe(10.0, 0.0) == 0.0);
    CHECK(expected_maximum_sharpe(1000.0, 1.0) > expected_maximum_sharpe(100.0, 1.0));
}

// Note [Undefined statistics], issue 29: a row that never traded had PSR
// 0.5 from a variance of zero.
TEST_CASE("PSR: undefined, with the reason, where the moments measure nothing") {
    const std::vector<double> flat(100, 0.0);
    const ReturnMoments none = moments_of_returns(flat);
    REQUIRE(none.undefined != nullptr);
    CHECK(std::string(none.undefined) == kNoVariance);
    CHECK(none.sharpe == 0.0);
    CHECK(std::isnan(probabilistic_sharpe_ratio(none, 0.0)));
    CHECK(std::string(psr_undefined(none)) == kNoVariance);
    const std::vector<double> broken = {0.01, std::numeric_limits<double>::infinity(), -0.01};
    CHECK(std::string(psr_undefined(moments_of_returns(broken))) == kNotFiniteReturns);
    CHECK(std::string(psr_undefined(ReturnMoments{0.1, 0.0, 3.0, 1})) == "fewer than two bar returns");
    CHECK(std::string(psr_undefined(ReturnMoments{2.0, 5.0, 1.0, 100})).find("too skewed") != std::string::npos);
    const ReturnMoments normal{0.1, 0.0, 3.0, 401};
    CHECK(psr_undefined(normal) == nullptr);
    CHECK(std::isnan(probabilistic_sharpe_ratio(normal, std::numeric_limits<double>::quiet_NaN())));
    const std::vector<double> moving = {0.01, -0.02, 0.03, 0.0};
    CHECK(moments_of_returns(moving).undefined == nullptr);
}

// The False Strategy Theorem's approximation against the mean maximum of N
// standard normals, simulated (seed 11, 4000 draws each: the simulated
// mean's standard error is below 0.01; the approximation is stated to be
// close for large N, and is within 2% here).
TEST_CASE("expected_maximum_sharpe approximates the mean maximum of N normal trials") {
    std::mt19937_64 random(11);
    std::normal_distribution<double> normal;
    for (int trials : {10, 100, 1000}) {
        CAPTURE(trials);
        double total = 0.0;
        const int draws = 4000;
        for (int d = 0; d < draws; ++d) {
            double best = -std::numeric_limits<double>::infinity();
            for (int t = 0; t < trials; ++t) best = std::max(best, normal(random));
            total += best;
        }
        CHECK(expected_maximum_sharpe(trials, 1.0) == doctest::Approx(total / draws).epsilon(0.02));
    }
}

// Returns 1, 2, 3, 4: mean 2.5, population variance 1.25, no skew,
// m4 = (2 * 1.5^4 + 2 * 0.5^4) / 4 = 2.5625, kurtosis 2.5625 / 1.5625 = 1.64.
TEST_CASE("moments_of_returns, worked by hand") {
    const std::vector<double> r = {1.0, 2.0, 3.0, 4.0};
    const ReturnMoments m = moments_of_returns(r);
    CHECK(m.sharpe == doctest::Approx(2.5 / std::sqrt(1.25)));
    CHECK(m.skewness == doctest::Approx(0.0).scale(1.0));
    CHECK(m.kurtosis == doctest::Approx(1.64));
    CHECK(m.observations == 4);
    const std::vector<double> skewed = {0.0, 0.0, 0.0, 4.0};  // mean 1, m2 3, m3 (3*(-1) + 27) / 4 = 6
    CHECK(moments_of_returns(skewed).skewness == doctest::Approx(6.0 / std::pow(3.0, 1.5)));
    const ReturnMoments flat = moments_of_returns(std::vector<double>{0.5, 0.5});
    CHECK(flat.sharpe == 0.0);
    CHECK(flat.kurtosis == 3.0);
}

struct SearchOutcome {
    double naive_significant = 0.0;     // share of searches whose winner has PSR(0) > 0.95
    double deflated_significant = 0.0;  // share whose winner has DSR > 0.95
};

// `searches` times: 200 strategies of 1000 normal per-bar returns, the
// first `edges` of them with a true per-bar Sharpe ratio `edge`; the winner
// is the best observed Sharpe ratio, deflated by the 200 trials and the
// variance of their Sharpe ratios.
SearchOutcome search(std::uint64_t seed, int edges, double edge, int searches) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal;
    const int strategies = 200;
    SearchOutcome outcome;
    for (int s = 0; s < searches; ++s) {
        std::vector<ReturnMoments> trials;
        for (int k = 0; k < strategies; ++k) {
            std::vector<double> r(1000);
            for (double& x : r) x = normal(random) + (k < edges ? edge : 0.0);
            trials.push_back(moments_of_returns(r));
        }
        double mean = 0.0;
        for (const ReturnMoments& m : trials) mean += m.sharpe;
        mean /= strategies;
        double variance = 0.0;
        for (const ReturnMoments& m : trials) variance += (m.sharpe - mean) * (m.sharpe - mean);
        variance /= strategies - 1;
        const ReturnMoments& best = *std::max_element(
            trials.begin(), trials.end(), [](const ReturnMoments& a, const ReturnMoments& b) { return a.sharpe < b.sharpe; });
        if (probabilistic_sharpe_ratio(best, 0.0) > 0.95) outcome.naive_significant += 1.0 / searches;
        if (deflated_sharpe_ratio(best, strategies, variance) > 0.95) outcome.deflated_significant += 1.0 / searches;
    }
    return outcome;
}

TEST_CASE("Monte Carlo: the best of 200 noise strategies looks significant, and its DSR says it is not") {
    // Seed 2024, 100 searches. The winner's naive PSR passes 0.95 in nearly
    // every search (measured: all); a DSR test at 0.95 should pass about 5%
    // of the time or less under no edge: allowed at most 10%.
    const SearchOutcome noise = search(2024, 0, 0.0, 100);
    CHECK(noise.naive_significant >= 0.9);
    CHECK(noise.deflated_significant <= 0.10);
}

TEST_CASE("Monte Carlo: a real edge survives deflation") {
    // 10 of the 200 strategies have a true per-bar Sharpe ratio of 0.2,
    // 6.3 standard errors of a 1000-bar estimate (1/sqrt(1000)): their
    // winner's DSR passes 0.95 in at least 90% of 100 searches (seed 7).
    const SearchOutcome planted = search(7, 10, 0.2, 100);
    CHECK(planted.deflated_significant >= 0.9);
}

}  // namespace
}  // namespace btforge
