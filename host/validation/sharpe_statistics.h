#pragma once

#include <cstdint>
#include <span>

namespace btforge {

// The Sharpe-ratio statistics of SPEC §11 that say how much of a sweep's
// best Sharpe ratio is luck (Bailey and López de Prado, "The Sharpe Ratio
// Efficient Frontier", 2012, and "The Deflated Sharpe Ratio", 2014).
//
// Note [Sharpe ratios per observation]
// Every Sharpe ratio here is per observation (per bar): mean / standard
// deviation of the per-bar returns, not annualized. The papers' formulas
// are stated that way, the variance of the estimator depends on the number
// of observations, and annualizing first would count the same noise
// sqrt(bars_per_year) times over. Callers divide a reported (annualized)
// Sharpe ratio by sqrt(bars_per_year) before asking, and multiply a
// benchmark back for display.

// Φ, the standard normal distribution function.
double normal_cdf(double x);

// Φ⁻¹(p) for p in (0, 1): -inf at 0, +inf at 1, NaN outside [0, 1].
// Relative error below 1e-14 (Acklam's rational approximation refined by one
// Halley step on erfc).
double normal_quantile(double p);

// Note [Undefined statistics]
// A statistic whose input leaves nothing to measure is undefined, not the
// number its formula happens to give for that input: one combination gave
// "PBO 1.00 ... most likely overfit", and rows that never traded a PSR of
// 0.5 from a variance of zero (issue 29). Each function that can meet such
// an input says why, in a fixed sentence (a `const char*`, nullptr when the
// value is defined), and the reports print "undefined (why)", write null and
// a "<name>_undefined" member with the reason in the validation JSON, and
// show the reason in the HTML report. The cases, by statistic:
//   - a row's moments and PSR: fewer than two bar returns, returns that are
//     not finite numbers, zero variance (its equity never moved), or a
//     variance term of the normal approximation that is not positive;
//   - the trials' Sharpe variance (SweepTrials): one combination, or fewer
//     than two with finite returns; the expected maximum: that, or a
//     variance of zero (every trial has the same Sharpe ratio), but 0 with
//     one trial, where nothing was selected and the DSR is the PSR(0);
//   - a row's DSR: its PSR's reason, else the expected maximum's;
//   - the probability of backtest overfitting: Note [Uninformative splits];
//   - walk-forward: Note [Walk-forward from period statistics].
// Such a value is NaN in the structs, so nothing can use it as a number.
// Sharpe ratios themselves keep the metrics' convention, 0 without spread
// (SPEC §7): what is undefined is what would be inferred from them.
inline constexpr const char* kOneCombination = "one combination: nothing was selected";
inline constexpr const char* kIdenticalReturns = "all combinations have identical period returns";
inline constexpr const char* kZeroTrialVariance = "zero variance of the trials' Sharpe ratios";

// The moments of one return series a PSR needs.
struct ReturnMoments {
    double sharpe;           // per observation (Note [Sharpe ratios per observation])
    double skewness;         // γ3; 0 for normal returns
    double kurtosis;         // γ4, not excess: 3 for normal returns
    std::int64_t observations;
    // Why the three numbers above are conventions (Sharpe 0, skewness 0,
    // kurtosis 3), not measurements: Note [Undefined statistics].
    const char* undefined = nullptr;
};

inline constexpr const char* kNoVariance = "zero variance of its bar returns (its equity never moved)";
inline constexpr const char* kNotFiniteReturns = "its returns are not finite numbers";

// The moments of a series of per-bar returns, two-pass, population (n in
// every denominator): Sharpe ratio mean / sd, skewness m3 / sd³, kurtosis
// m4 / sd⁴. A series without spread has Sharpe 0, skewness 0, kurtosis 3,
// and says so in `undefined` (kNoVariance, or kNotFiniteReturns when the
// variance is not a number).
ReturnMoments moments_of_returns(std::span<const double> returns);

// Why the PSR of `observed` is undefined, or nullptr: its moments' reason,
// fewer than 2 observations, or a non-positive variance term (a sample too
// skewed for the normal approximation). Note [Undefined statistics].
const char* psr_undefined(const ReturnMoments& observed);

// PSR(SR*): the probability that the true Sharpe ratio exceeds `benchmark`
// given the observed one, its sample length, skewness and kurtosis
// (2012, eq. 10):
//   Φ( (SR - SR*) sqrt(n - 1) / sqrt(1 - γ3 SR + (γ4 - 1) / 4 SR²) ).
// NaN where psr_undefined gives a reason, or the benchmark is NaN.
double probabilistic_sharpe_ratio(const ReturnMoments& observed, double benchmark);

// The z of that formula, PSR = Φ(z): the same order as the PSR but without
// its saturation at 0 and 1 (what --rank-by dsr sorts by). NaN where the PSR is.
double probabilistic_sharpe_statistic(const ReturnMoments& observed, double benchmark);

// E[max SR] of `trials` independent trials whose Sharpe ratios have mean 0
// and `variance` across trials (2014, eq. 8, after the False Strategy
// Theorem): sqrt(V) ((1 - γ) Φ⁻¹(1 - 1/N) + γ Φ⁻¹(1 - 1/(N e))), γ the
// Euler-Mascheroni constant. 0 for a single trial (nothing was selected).
double expected_maximum_sharpe(double trials, double variance);

// DSR: PSR against the expected maximum of the trials (2014, eq. 9).
double deflated_sharpe_ratio(const ReturnMoments& observed, double trials, double variance);

}  // namespace btforge
