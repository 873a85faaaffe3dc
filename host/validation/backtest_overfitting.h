#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "host/validation/cscv_split.h"
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
//
// Note [Uninformative splits]
// A split where every combination has the same Sharpe ratio in-sample
// selects nothing (the "winner" is the first combination by the tie rule),
// and one where every combination has the same Sharpe ratio out of sample
// cannot rank the winner (ω = 1/2 by construction, λ = 0, which the PBO
// would count as overfit). Such a split carries no evidence either way, so
// PBO, the degradation line and the probability of loss are taken over the
// informative splits only. Both conditions come from the rank scan's counts
// alone: the out-of-sample side ties when `equal` = N, the in-sample side
// when the complementary split (its out-of-sample periods are this split's
// in-sample ones) has `equal` = N. With no informative split the statistics
// are undefined (NaN; Note [Undefined statistics]), with the reason: one
// combination (nothing was selected), combinations with identical period
// returns, or ties in every split. The degradation line is also undefined
// when the winners' in-sample Sharpe ratios do not vary: no line fits one
// point (it used to be a slope of 0).

struct OverfittingSplit {
    std::uint32_t in_sample_mask = 0;  // bit p: period p is in-sample
    std::uint64_t winner = 0;          // n*, index into the combinations
    double in_sample_sharpe = 0.0;     // n*'s, per bar
    double out_of_sample_sharpe = 0.0;
    double relative_rank = 0.0;        // ω
    double logit = 0.0;                // λ
    bool informative = true;           // Note [Uninformative splits]
};

struct OverfittingReport {
    int periods = 0;                   // S
    std::uint64_t combinations = 0;    // N
    std::vector<OverfittingSplit> splits;  // C(S, S/2), in mask order
    std::uint64_t informative_splits = 0;  // what the statistics below are taken over
    const char* undefined = nullptr;       // why they are NaN: no informative split (Note [Uninformative splits])
    double pbo = 0.0;
    double degradation_slope = 0.0;    // out-of-sample Sharpe per unit of in-sample Sharpe of the winner
    double degradation_intercept = 0.0;
    const char* degradation_undefined = nullptr;  // why both are NaN
    double probability_of_loss = 0.0;
    double seconds = 0.0;       // wall time: packing, both scans, the report (and a GPU's context and copies)
    double scan_seconds = 0.0;  // the two scans alone (on a GPU: its kernels, by events)
    int threads = 1;       // that ran (CPU)
    std::string device;    // the GPU that ran the scans; "" on the CPU
    bool cancelled = false;
};

struct OverfittingOptions {
    int threads = 1;
    // Progress, optional: combinations scanned, cscv_scan_total() in all.
    std::atomic<std::uint64_t>* scanned = nullptr;
    const std::atomic<bool>* cancel = nullptr;  // optional
};

// The progress total of N combinations: each is scanned twice (Note [CSCV scan]).
inline std::uint64_t cscv_scan_total(std::uint64_t combinations) { return 2 * combinations; }

// `returns` holds N rows of S periods, combination-major
// (returns[n * S + p]). Throws std::invalid_argument for S odd, below 2 or
// above 16, or an empty or ragged matrix.
OverfittingReport probability_of_backtest_overfitting(std::span<const PeriodStatistics> returns, int periods,
                                                      const OverfittingOptions& options);

// The in-sample masks of every split of S periods, in increasing order.
std::vector<std::uint32_t> cscv_split_masks(int periods);

// The packed input of both scans (Note [CSCV scan]).
struct CscvInput {
    int periods = 0;
    std::uint64_t combinations = 0;
    std::vector<CscvSums> sums;                          // [combinations * periods]
    std::array<std::int64_t, kMaxPeriods> bars{};        // per period, the same for every combination
    std::uint32_t all_periods() const { return (std::uint32_t{1} << periods) - 1; }
    std::int64_t bars_of(std::uint32_t mask) const;
    const CscvSums* row(std::uint64_t combination) const { return sums.data() + combination * static_cast<std::uint64_t>(periods); }
};

// Throws std::invalid_argument as probability_of_backtest_overfitting does,
// and when the combinations' bar counts of a period differ.
CscvInput pack_cscv_input(std::span<const PeriodStatistics> returns, int periods);
// The same packing for any 1..16 periods (what splits other than halves read).
CscvInput pack_period_sums(std::span<const PeriodStatistics> returns, int periods);

// Scan 1 of Note [CSCV scan] for any in-sample masks: per mask, the
// combination of best in-sample Sharpe ratio (cscv_ranks_before), on
// options.threads (*threads, when not null, says how many ran; progress
// counts each combination once). The combinatorial purged cross-validation
// (Note [Combinatorial purged cross-validation]) selects with it too.
std::vector<CscvBest> in_sample_winners(const CscvInput& input, std::span<const std::uint32_t> masks,
                                        const OverfittingOptions& options, int* threads);
// The winners' out-of-sample Sharpe ratios: the thresholds of the rank scan.
std::vector<double> cscv_winner_out_of_sample(const CscvInput& input, std::span<const std::uint32_t> masks,
                                              std::span<const CscvBest> winners);

// The report from the two scans' merged results, whoever ran them; seconds,
// threads and device are left for the caller.
OverfittingReport cscv_report(const CscvInput& input, std::span<const std::uint32_t> masks,
                              std::span<const CscvBest> winners, std::span<const CscvCount> counts);

}  // namespace btforge
