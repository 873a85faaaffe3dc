#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "host/validation/backtest_overfitting.h"
#include "reference/metrics/period_statistics.h"

namespace btforge {

// Note [Combinatorial purged cross-validation]
// López de Prado, Advances in Financial Machine Learning (2018), ch. 12,
// with the window's S periods as its N groups (Note [Period statistics]).
// Each of the C(S, k) ways to pick k periods is one split (numbered in the
// increasing order of their test masks): the picked periods are tested, and
// the in-sample set is every other period except the E on each side of
// every tested block. Those E periods are the purge (before a test block)
// and the embargo (after it) at the periods' grain: a combination's returns
// are realized bar by bar, so no label reaches forward, and what ties two
// adjacent periods is a position held across their boundary, which runs
// both ways; hence one E for both sides.
// Per split, the in-sample winner is the combination of best per-bar
// Sharpe ratio over the in-sample periods (in_sample_winners: Note [CSCV
// scan], ties to the smaller index), the selection a user makes from a
// sweep. Each period is tested in φ = C(S-1, k-1) splits, and there are φ
// paths: path j takes, for each period p, the winner of the j-th split (in
// split order) that tests p, in p. A path is a whole out-of-sample history
// of the window, each period traded by a winner selected without it; its
// Sharpe ratio is the per-bar Sharpe ratio of the union of its periods'
// sums (Σr, Σr², bars), like every statistic of the validation. What is
// reported is the distribution of the φ paths' Sharpe ratios: each one, the
// mean, the population standard deviation, the extremes and the share at or
// below 0. All of it comes from the period statistics, on the host, so the
// result is the same bits for every engine that made them (cpu, emu, cuda),
// through shards and merges.
// A split whose in-sample set the purge and embargo leave empty is refused
// with the plan (check_purged_cv_plan), before the sweep runs.

struct PurgedCvPlan {
    int test_periods = 2;  // k
    int embargo = 1;       // E: periods left out of the in-sample set on each side of a tested block
};

// "K" or "K:E" (E defaults to 1); nullopt and the reason in *error otherwise.
std::optional<PurgedCvPlan> parse_purged_cv(std::string_view text, std::string* error);
// "k=2 test periods, embargo 1"
std::string describe_purged_cv(const PurgedCvPlan& plan);
// Why the plan cannot split `periods` periods (k out of range, or a split
// left with no in-sample period), or empty.
std::string check_purged_cv_plan(const PurgedCvPlan& plan, int periods);

struct PurgedCvSplit {
    std::uint32_t test_mask = 0;       // bit p: period p is tested
    std::uint32_t in_sample_mask = 0;  // the other periods, less the purge and embargo
    std::uint64_t winner = 0;          // ordinal of the combination
    double in_sample_sharpe = 0.0;     // per bar
};

struct PurgedCvPath {
    std::vector<int> splits;  // per period, the split whose winner trades it
    double sharpe = 0.0;      // per bar, of the union of its periods
    std::int64_t bars = 0;
};

struct PurgedCvReport {
    PurgedCvPlan plan;
    int periods = 0;  // S
    std::uint64_t combinations = 0;
    std::vector<PurgedCvSplit> splits;  // C(S, k), in test-mask order
    std::vector<PurgedCvPath> paths;    // φ = C(S-1, k-1)
    double mean_sharpe = 0.0;           // of the paths, per bar
    double sharpe_deviation = 0.0;      // population standard deviation, per bar
    double min_sharpe = 0.0;
    double max_sharpe = 0.0;
    double share_not_positive = 0.0;    // paths with a Sharpe ratio <= 0
    // One combination: every path is its returns, nothing was selected
    // (Note [Undefined statistics]); the distribution is still its own.
    const char* selection_undefined = nullptr;
    double seconds = 0.0;
    int threads = 1;
    bool cancelled = false;
};

// The test masks of the plan's splits of `periods` periods, increasing.
std::vector<std::uint32_t> purged_cv_test_masks(int test_periods, int periods);
// The in-sample mask of a split: every period not tested, less `embargo`
// periods on each side of every tested block.
std::uint32_t purged_cv_in_sample_mask(std::uint32_t test_mask, int periods, int embargo);

// `returns` holds N rows of S periods, combination-major. Throws
// std::invalid_argument for a plan check_purged_cv_plan refuses or a matrix
// that is not whole rows; progress and cancellation as the CSCV's (each
// combination counted once).
PurgedCvReport combinatorial_purged_cv(std::span<const PeriodStatistics> returns, int periods,
                                       const PurgedCvPlan& plan, const OverfittingOptions& options);

}  // namespace btforge
