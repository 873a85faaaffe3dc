#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "host/validation/period_performance.h"

namespace btforge {

// Note [Combinatorially symmetric cross-validation]
// The probability of backtest overfitting (Bailey, Borwein, López de Prado
// and Zhu, "The Probability of Backtest Overfitting", 2015), over every
// combination of a sweep. The window is cut into S periods (S even); each of
// the C(S, S/2) ways to pick S/2 of them is one split: the picked periods are
// in-sample, the rest out-of-sample, so every period is in-sample in exactly
// half of the splits (the symmetry). Per split:
//   1. every combination's performance in-sample and out-of-sample, the
//      per-bar Sharpe ratio of the union of its periods (sharpe_of_periods);
//   2. n*, the in-sample winner (ties: the smaller combination index);
//   3. ω, the relative rank of n*'s out-of-sample Sharpe among all N
//      combinations': (1 + below + equal / 2) / (N + 1), `below` counting the
//      combinations strictly worse out-of-sample and `equal` the others that
//      tie with it, so ω is in (0, 1) and 1/2 means "median";
//   4. the logit λ = ln(ω / (1 - ω)).
// PBO is the share of splits with λ <= 0: how often the in-sample winner
// lands at or below the out-of-sample median. The performance degradation
// is the least-squares line of the winner's out-of-sample Sharpe on its
// in-sample Sharpe over the splits (a slope well below 1 means in-sample
// rank predicts little), and the probability of loss the share of splits
// whose winner has a negative out-of-sample Sharpe. Splits are numbered in
// the lexicographic order of their in-sample masks, so the result is the
// same for any thread count.

struct OverfittingSplit {
    std::uint32_t in_sample_mask = 0;  // bit p: period p is in-sample
    std::uint64_t winner = 0;          // n*, index into the combinations
    double in_sample_sharpe = 0.0;     // n*'s, per bar
    double out_of_sample_sharpe = 0.0;
    double relative_rank = 0.0;        // ω
    double logit = 0.0;                // λ
};

struct OverfittingReport {
    int periods = 0;                   // S
    std::uint64_t combinations = 0;    // N
    std::vector<OverfittingSplit> splits;  // C(S, S/2), in mask order
    double pbo = 0.0;
    double degradation_slope = 0.0;    // out-of-sample Sharpe per unit of in-sample Sharpe of the winner
    double degradation_intercept = 0.0;
    double probability_of_loss = 0.0;
    double seconds = 0.0;  // wall time
    int threads = 1;       // that ran
    bool cancelled = false;
};

struct OverfittingOptions {
    int threads = 1;
    std::atomic<std::uint64_t>* splits_done = nullptr;  // progress, optional
    const std::atomic<bool>* cancel = nullptr;          // optional
};

// `returns` holds N rows of S periods, combination-major
// (returns[n * S + p]). Throws std::invalid_argument for S odd, below 2 or
// above 16, or an empty or ragged matrix.
OverfittingReport probability_of_backtest_overfitting(std::span<const PeriodStatistics> returns, int periods,
                                                      const OverfittingOptions& options);

// The in-sample masks of every split of S periods, in increasing order.
std::vector<std::uint32_t> cscv_split_masks(int periods);

}  // namespace btforge
