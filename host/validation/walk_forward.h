#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reference/metrics/period_statistics.h"

namespace btforge {

// Note [Walk-forward from period statistics]
// Walk-forward optimization over the S periods of a sweep (Note [Period
// statistics]): step i takes in-sample periods [a, i) and the out-of-sample
// period i, for i = k .. S-1; anchored keeps a = 0 (the in-sample window
// grows from k periods), rolling:k keeps a = i - k. Each step's winner is the
// combination that ranks best in-sample by the chosen score, computed exactly
// from its period sums (period_performance.h; a NaN score below every
// number, ties: the smaller ordinal).
// Its out-of-sample result is its own statistics of period i in the run that
// traded every period: the parameters a user would have picked at the end
// of the in-sample window, as they traded the next period. The stitched
// out-of-sample path chains the winners' periods: its return compounds
// theirs, its Sharpe ratio sums their return sums. The walk-forward
// efficiency is the stitched path's mean per-bar return over the mean of the
// winners' in-sample per-bar returns (annualizing both cancels): near 1 the
// in-sample performance carried over, near 0 or below it did not.
// Degenerate steps are said (Note [Undefined statistics]): a step selects
// nothing when there is one combination, when every combination has the
// same in-sample score, or when none has a finite one; the first
// combination then stands in (its numbers are what following the rule
// would have traded), and the efficiency, which measures what selecting
// bought, is undefined when no step selected anything. An out-of-sample
// period without bars has no Sharpe ratio.

enum class WalkForwardWindow { Anchored, Rolling };

struct WalkForwardPlan {
    WalkForwardWindow window = WalkForwardWindow::Rolling;
    int in_sample_periods = 4;  // k: rolling's length, anchored's first length
};

// "anchored", "anchored:K" (K defaults to 1) or "rolling:K"; nullopt and a
// reason in *error otherwise.
std::optional<WalkForwardPlan> parse_walk_forward(std::string_view text, std::string* error);
std::string describe_walk_forward(const WalkForwardPlan& plan);

enum class WalkForwardScore { Sharpe, Sortino, TotalReturn };

// The score of a metric name (sharpe, sortino, total_return), if it can be
// computed exactly from period sums.
std::optional<WalkForwardScore> walk_forward_score(std::string_view metric);

struct WalkForwardStep {
    int first_in_sample = 0;  // periods [first_in_sample, out_of_sample) are in-sample
    int out_of_sample = 0;
    std::uint64_t winner = 0;  // ordinal of the combination
    double in_sample_score = 0.0;
    double out_of_sample_score = 0.0;
    double in_sample_return = 0.0;  // compounded
    double out_of_sample_return = 0.0;
    double in_sample_sharpe = 0.0;  // per bar
    double out_of_sample_sharpe = 0.0;
    std::int64_t in_sample_bars = 0;
    std::int64_t out_of_sample_bars = 0;
    int out_of_sample_trades = 0;
    std::uint64_t in_sample_ties = 0;              // combinations with the winner's in-sample score, itself included
    const char* selection_undefined = nullptr;     // why the step selected nothing
    const char* out_of_sample_undefined = nullptr;  // why out_of_sample_sharpe is NaN
};

struct WalkForwardReport {
    WalkForwardPlan plan;
    std::vector<WalkForwardStep> steps;
    double stitched_return = 0.0;  // compounded over the out-of-sample periods
    double stitched_sharpe = 0.0;  // per bar; NaN without bars
    std::int64_t stitched_bars = 0;
    int stitched_trades = 0;
    double efficiency = 0.0;  // NaN when undefined:
    const char* efficiency_undefined = nullptr;  // no step selected, or the winners did not gain in-sample
};

// `periods` holds `combinations` rows of `n_periods` (ordinal-major).
// Throws std::invalid_argument when k leaves no out-of-sample period. The
// winners are selected on `threads` (Note [Walk-forward winners in one
// pass]); the report is the same for any number.
WalkForwardReport walk_forward(std::span<const PeriodStatistics> periods, int n_periods, const WalkForwardPlan& plan,
                               WalkForwardScore score, int threads = 1);

}  // namespace btforge
