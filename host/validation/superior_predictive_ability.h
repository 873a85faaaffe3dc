#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "host/validation/stationary_bootstrap.h"

namespace btforge {

// Note [Reality Check, SPA and StepM]
// Is the best of K combinations better than a benchmark, or the best of K
// draws of luck? And which combinations beat it, with the chance of naming
// any one wrongly held to a size α? Three bootstrap tests answer over every
// combination at once, from one matrix of performance differentials
// d[k][t] = r_k[t] - r_benchmark[t] (T observations per combination: its
// return stream less the benchmark's; arch's loss differential with loss =
// -return) and one set of resamples (Note [Stationary bootstrap]). With
// m_k = Σ_t d[k][t] / T and a resample's m*_k = Σ_t count[t] d[k][t] / T,
// each resample gives, per recentering μ, max_k (m*_k - μ_k):
//   - White's Reality Check (2000): μ_k = m_k (the upper p-value);
//   - Hansen's SPA (2005): μ_k = m_k where m_k >= -sqrt(ω²_k / T * 2 log log T)
//     and 0 where a combination is so much worse than the benchmark that it
//     cannot be the best (consistent); μ_k = max(m_k, 0) (lower). ω²_k is
//     the stationary bootstrap's variance of √T m_k in closed form (Politis
//     & Romano 1994, the κ weights of Hansen 2005, p = 1/L);
//   - the p-value of each: the share of resamples whose maximum exceeds the
//     observed max_k m_k;
//   - Romano & Wolf's StepM (2005): the combinations with m_k above the
//     1 - α quantile (numpy's linear interpolation) of the consistent
//     maxima are superior; they are removed and the quantile is taken again
//     over the rest, until a step names none.
// These are arch's definitions (arch.bootstrap.SPA, StepM; studentize only
// in the threshold, as arch does), so arch is the oracle: given the same
// resamples, its p-values, critical value and superior set equal these
// (parity-tests/multiple_testing/arch_fixture.py). A combination whose stream is
// not finite is left out and counted. Every maximum is a max over
// combinations, independent of their order, so the result is the same bits
// for any thread count and tile size. Undefined (Note [Undefined
// statistics]) with no combination or fewer than 3 observations (log log T
// is not positive).

// The differentials: count streams of `observations` values each, stream k
// at values[k * observations].
struct Differentials {
    std::span<const double> values;
    std::uint64_t count = 0;
    int observations = 0;
};

// A resample as the observations it draws at least once, in increasing
// order, with their counts: a count of 0 adds 0 * x = ±0 to a sum, which
// leaves every finite sum's bits as they are (a sum from +0 is never -0),
// so skipping it changes nothing.
struct SparseResample {
    std::vector<int> position;
    std::vector<double> count;
};
std::vector<SparseResample> sparse_resamples(const BootstrapCounts& resamples);

// One bootstrap pass: per resample b and recentering v, the maximum over the
// selected combinations of m*_k - centers[v][k], where m*_k is the sum over
// the resample's positions, in their order, of count * d[k][t], divided by
// T; maxima[b * V + v], -inf where none is selected, +0 for a maximum of
// ±0. Every engine of the pass computes exactly these operations per (b, k)
// and takes maxima, which no order changes: the same bits everywhere.
struct BootstrapPass {
    std::vector<const std::vector<double>*> centers;
    const std::vector<char>* selected = nullptr;
};

// Note [Bootstrap maxima on the device]: an engine that holds one SPA's
// differentials and resamples (a GPU) and runs its passes.
class BootstrapScan {
public:
    virtual ~BootstrapScan() = default;
    virtual std::vector<double> maxima(const BootstrapPass& pass) = 0;
    // stationary_bootstrap_variances' values, bit for bit, from its κ weights.
    virtual std::vector<double> variances(std::span<const double> kappa) = 0;
    virtual std::string where() const = 0;  // "NVIDIA H200 (cuda)"
};
// Makes the scan of one SPA, or returns null when this one cannot run there
// (the caller then scans on the CPU).
using BootstrapScanFactory =
    std::function<std::unique_ptr<BootstrapScan>(const Differentials&, std::span<const SparseResample>)>;

struct SpaOptions {
    double mean_block = 1.0;  // L of the variance's κ weights (p = 1/L): the bootstrap's
    double size = 0.05;       // α of StepM's family-wise error rate, in (0, 1)
    int threads = 1;
    // Progress, optional: combinations done in the first bootstrap pass
    // (StepM's later passes, whose number is not known before, are not
    // counted).
    std::atomic<std::uint64_t>* scanned = nullptr;
    const std::atomic<bool>* cancel = nullptr;
    // Unset, or returning null: the passes run on `threads` of the CPU.
    BootstrapScanFactory device{};
};

// The CPU's pass (the device's must equal it bit for bit).
std::vector<double> bootstrap_maxima(const Differentials& d, std::span<const SparseResample> resamples,
                                     const BootstrapPass& pass, const SpaOptions& options, bool& cancelled);

struct SpaReport {
    std::uint64_t combinations = 0;  // tested
    std::uint64_t left_out = 0;      // streams that are not finite
    int observations = 0;
    int resamples = 0;
    double mean_block = 0.0;
    double size = 0.0;
    std::uint64_t best = 0;          // index of the largest mean differential
    double best_mean = 0.0;          // m_best, per observation
    double pvalue_lower = 0.0;
    double pvalue_consistent = 0.0;  // Hansen's SPA
    double pvalue_upper = 0.0;       // White's Reality Check
    double critical_value = 0.0;     // StepM's first step (consistent, at size)
    std::vector<std::uint64_t> superior;  // StepM, ascending indices
    int steps = 0;                        // StepM's bootstrap passes
    const char* undefined = nullptr;      // Note [Undefined statistics]
    std::string device;                   // the GPU that ran the passes; "" on the CPU
    bool cancelled = false;
};

inline constexpr const char* kSpaTooFewObservations = "fewer than 3 observations (log log T is not positive)";
inline constexpr const char* kSpaNoCombination = "no combination with a finite return stream";

// Throws std::invalid_argument when the shapes disagree (values, count,
// observations and the counts' observations) or size is not in (0, 1).
SpaReport superior_predictive_ability(const Differentials& d, const BootstrapCounts& resamples,
                                      const SpaOptions& options);

// The bootstrap's variance of √T m_k (arch's `_compute_variance`, not
// nested), per stream: the κ-weighted autocovariances of its demeaned values.
// Per stream, in this order: the mean (a sum in order over T), the demeaned
// values and the sum of their squares, then for each lag i = 1 .. T-1 the
// sum in order of the products i apart, added as 2 κ_i lagged / T.
std::vector<double> stationary_bootstrap_variances(const Differentials& d, double mean_block, int threads = 1);
// κ_i of the variances (index 0 unused): (1 - i/T)(1 - p)^i + (i/T)(1 - p)^(T-i), p = 1/L.
std::vector<double> stationary_bootstrap_kappa(int observations, double mean_block);

// numpy.percentile(values, q) with the default linear method; q in [0, 100].
double linear_percentile(std::vector<double> values, double q);

}  // namespace btforge
