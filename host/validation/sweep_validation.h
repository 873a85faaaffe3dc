#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "host/validation/backtest_overfitting.h"
#include "host/validation/effective_trials.h"
#include "host/validation/purged_cross_validation.h"
#include "host/validation/sharpe_statistics.h"
#include "host/validation/superior_predictive_ability.h"
#include "host/validation/walk_forward.h"

namespace btforge {

// Note [Validation of a sweep]
// What `sweep --periods/--pbo/--walk-forward` adds to the ranked rows
// (SPEC §11), all from the period statistics of every combination:
//   - the probability of backtest overfitting over every combination
//     (Note [Combinatorially symmetric cross-validation]);
//   - walk-forward optimization (Note [Walk-forward from period statistics]);
//   - the deflated Sharpe ratio of the top rows: the trials are every
//     combination of the sweep, their Sharpe ratios' variance is taken over
//     all of them, and each row's Sharpe ratio, skewness and kurtosis come
//     from its period power sums (Note [Moments from power sums]), kernel
//     outputs like its metrics; all per bar;
//   - the combinatorial purged cross-validation: the distribution of the
//     out-of-sample Sharpe ratio of the selection over its paths (Note
//     [Combinatorial purged cross-validation]);
//   - with return streams kept, the effective number of trials: the
//     combinations clustered by their return streams (Note [Effective
//     number of trials]), and beside each top row's DSR its clustered DSR,
//     whose trials are the clusters and whose variance is that of the
//     clusters' representatives' Sharpe ratios (each from its period power
//     sums, as every row's); the verdict reads the clustered one;
//   - White's Reality Check, Hansen's SPA and Romano-Wolf's StepM over
//     every combination's return stream, from its equity marks rather than
//     its periods (Note [Return streams from equity marks], Note [Reality
//     Check, SPA and StepM]), against cash or buy and hold (Note
//     [Buy-and-hold benchmark]: its marks' stream subtracted part by part);
//   - one verdict (Note [The verdict], sweep_verdict.h).
// What a degenerate input leaves undefined is said, not computed: Note
// [Undefined statistics]. The marking of rows with few trades (Note [Rows
// with few trades]) does not reach any of it: every combination is a trial
// and a candidate in-sample winner, whatever its trades.

// A row of the sweep: where its period statistics are (run order) and its id.
struct SweepRowRef {
    std::uint64_t ordinal = 0;
    std::uint64_t combination_id = 0;
};

struct DeflatedRow {
    std::uint64_t combination_id = 0;
    ReturnMoments moments;  // per-bar Sharpe ratio, skewness, kurtosis, bars
    double psr = 0.0;       // PSR against 0: probability the true Sharpe ratio is positive
    double dsr = 0.0;       // PSR against the expected maximum of the trials
    const char* psr_undefined = nullptr;  // Note [Undefined statistics]
    const char* dsr_undefined = nullptr;
    // Against the expected maximum of the clusters (NaN without return
    // streams: SweepValidation::clustered) and the row's cluster.
    double clustered_dsr = 0.0;
    const char* clustered_dsr_undefined = nullptr;
    std::uint32_t cluster = kNoCluster;
};

// The trials of a sweep for the deflated Sharpe ratio: how many, the
// variance of their whole-window Sharpe ratios (per bar; the combinations
// whose period sums are not finite left out), and the expected maximum of
// that many trials with that variance. Undefined, with the reason (Note
// [Undefined statistics]): the variance with one combination or fewer than
// two finite ones; the expected maximum then, and with a variance of 0 (it
// is 0 with one trial: nothing was selected).
struct SweepTrials {
    std::uint64_t trials = 0;
    double sharpe_variance = 0.0;
    double expected_max_sharpe = 0.0;
    const char* sharpe_variance_undefined = nullptr;
    const char* expected_max_sharpe_undefined = nullptr;
};

// The trials as clusters of return streams: the clusters, their
// representatives' whole-window Sharpe ratios (per bar; NaN where the sums
// are not finite), and the trials they make for the DSR.
struct ClusteredTrials {
    TrialClusters clusters;
    std::vector<double> representative_sharpe;
    SweepTrials trials;
};

struct SweepValidation {
    int n_periods = 0;
    std::uint64_t trials = 0;
    double sharpe_variance = 0.0;      // across every combination, per bar
    double expected_max_sharpe = 0.0;  // of that many trials with that variance, per bar
    const char* sharpe_variance_undefined = nullptr;  // as SweepTrials'
    const char* expected_max_sharpe_undefined = nullptr;
    std::vector<DeflatedRow> deflated;
    std::optional<ClusteredTrials> clustered;
    std::optional<OverfittingReport> pbo;
    std::optional<WalkForwardReport> walk_forward;
    std::optional<PurgedCvReport> cpcv;
    std::optional<SpaReport> spa;  // superior indices are ordinals (run order)
    const char* spa_benchmark = "cash";  // or "buy and hold" (Note [Buy-and-hold benchmark])
    bool daily_returns = false;  // the parts are UTC days (Note [Equity marks at UTC days])
    std::uint64_t seed = 0;  // of the clusters' sample and the bootstrap (--spa-seed)

    // A scan of every combination (the CSCV's or the CPCV's) was stopped.
    bool cancelled() const {
        return (pbo && pbo->cancelled) || (cpcv && cpcv->cancelled) || (spa && spa->cancelled);
    }
};

struct ValidationRequest {
    int n_periods = 0;
    bool pbo = false;
    std::optional<WalkForwardPlan> walk_forward;
    WalkForwardScore score = WalkForwardScore::Sharpe;
    std::optional<PurgedCvPlan> cpcv;
    // Note [Return streams from equity marks]: return_parts marks per
    // combination in run order (0: none kept) and the initial equity they
    // start from; with them the trials are clustered (Note [Effective number
    // of trials], from seed), and with a bootstrap (its observations
    // return_parts) the Reality Check, SPA and StepM at size spa_size.
    int return_parts = 0;
    bool daily_returns = false;  // the parts are the window's UTC days (Note [Equity marks at UTC days])
    std::span<const double> equity_marks;
    double initial_equity = 0.0;
    std::uint64_t seed = 0;
    std::optional<StationaryBootstrapPlan> spa;
    double spa_size = 0.05;
    // The SPA's benchmark: empty, cash; else its return_parts equity marks
    // (Note [Buy-and-hold benchmark]), from the same initial equity.
    std::span<const double> benchmark_marks;
    std::vector<SweepRowRef> top_rows;  // rows to deflate, best first
    OverfittingOptions pbo_options;  // also the CPCV's (its scan counts each combination once more)
    int threads = 1;  // of the trials and the walk-forward (the CSCV's: pbo_options.threads)
    // Runs the CSCV elsewhere (a GPU: Note [CSCV scan on the device]) with
    // the same result; unset: probability_of_backtest_overfitting on the CPU.
    std::function<OverfittingReport(std::span<const PeriodStatistics>, int, const OverfittingOptions&)> overfitting;
    // Runs the SPA's bootstrap passes elsewhere (a GPU: Note [Bootstrap
    // maxima on the device]) with the same result; unset: on the CPU.
    BootstrapScanFactory bootstrap;
};

// `periods` holds n_periods statistics per combination in run order.
SweepValidation validate_sweep(std::span<const PeriodStatistics> periods, const ValidationRequest& request);

// The per-combination ratios are computed on `threads`; the same result
// for any number.
SweepTrials sweep_trials(std::span<const PeriodStatistics> periods, int n_periods, int threads = 1);

// The trials of the clusters: their count and their representatives' Sharpe
// ratios, folded as sweep_trials' of every combination.
ClusteredTrials clustered_trials(std::span<const PeriodStatistics> periods, int n_periods, TrialClusters clusters);

// The deflated Sharpe ratio of row `ordinal` against `trials`, and against
// `clustered` when given.
DeflatedRow deflate_row(std::span<const PeriodStatistics> periods, int n_periods, const SweepTrials& trials,
                        SweepRowRef row, const ClusteredTrials* clustered = nullptr);

// --rank-by dsr: the ordinals of the `top_n` rows of highest deflated Sharpe
// ratio, best first, by its z statistic (probabilistic_sharpe_statistic:
// the DSR's order without its saturation at 0 and 1), in the groups of
// Note [Deterministic ranking]: rows with fewer than `min_trades` trades
// (their periods' trades summed: the whole window's n_trades) after the
// others, rows of undefined DSR (NaN) last; ties by the smaller
// `combination_id(ordinal)`. The rows are scored on `threads`; the same
// rows for any number. When `ranked` is given, only the ordinals it
// accepts are ranked (Note [Distinct outcomes]: one row per outcome).
std::vector<SweepRowRef> rank_by_deflated_sharpe(std::span<const PeriodStatistics> periods, int n_periods,
                                                 std::size_t top_n, int min_trades,
                                                 const std::function<std::uint64_t(std::uint64_t)>& combination_id,
                                                 int threads = 1,
                                                 const std::function<bool(std::uint64_t)>& ranked = {});

}  // namespace btforge
