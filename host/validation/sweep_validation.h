#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "host/validation/backtest_overfitting.h"
#include "host/validation/sharpe_statistics.h"
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
//     all of them (per bar, from the period sums), and each top row's
//     skewness and kurtosis come from its per-bar returns, replayed on the
//     CPU reference (the same bits as its row);
//   - a verdict in words.

struct DeflatedRow {
    std::uint64_t combination_id = 0;
    ReturnMoments moments;  // per-bar Sharpe ratio, skewness, kurtosis, bars
    double psr = 0.0;       // PSR against 0: probability the true Sharpe ratio is positive
    double dsr = 0.0;       // PSR against the expected maximum of the trials
};

struct SweepValidation {
    int n_periods = 0;
    std::uint64_t trials = 0;
    double sharpe_variance = 0.0;      // across every combination, per bar
    double expected_max_sharpe = 0.0;  // of that many trials with that variance, per bar
    std::vector<DeflatedRow> deflated;
    std::optional<OverfittingReport> pbo;
    std::optional<WalkForwardReport> walk_forward;
};

struct ValidationRequest {
    int n_periods = 0;
    bool pbo = false;
    std::optional<WalkForwardPlan> walk_forward;
    WalkForwardScore score = WalkForwardScore::Sharpe;
    std::vector<std::uint64_t> top_rows;  // combination ids to deflate, best first
    // The per-bar equity of a combination (the CPU reference's replay) and
    // the initial equity it starts from.
    std::function<std::vector<double>(std::uint64_t combination_id)> equity_of;
    double initial_equity = 0.0;
    OverfittingOptions pbo_options;
    // Runs the CSCV elsewhere (a GPU: Note [CSCV scan on the device]) with
    // the same result; unset: probability_of_backtest_overfitting on the CPU.
    std::function<OverfittingReport(std::span<const PeriodStatistics>, int, const OverfittingOptions&)> overfitting;
};

// `periods` holds n_periods statistics per combination in run order.
SweepValidation validate_sweep(std::span<const PeriodStatistics> periods, const ValidationRequest& request);

// The moments of the per-bar returns of an equity curve, r = e / e_prev - 1
// from `initial_equity` on, and 0 after a non-positive equity (as the
// metrics count a ruined account).
ReturnMoments return_moments(std::span<const double> equity, double initial_equity);

// One paragraph a user can act on: how likely the ranking is overfit, and
// whether the best row's Sharpe ratio survives deflation.
std::string validation_verdict(const SweepValidation& validation);

}  // namespace btforge
