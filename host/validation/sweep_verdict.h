#pragma once

#include <string>
#include <vector>

#include "host/validation/sweep_validation.h"

namespace btforge {

// Note [The verdict]
// A sweep's validation ends in one decision, from four tests that each ask
// whether the edge of the ranking's best is real, so that no two headline
// numbers can contradict each other:
//   1. PBO below 0.2: in more than 80% of the CSCV's splits the in-sample
//      winner stays above the out-of-sample median (Note [Combinatorially
//      symmetric cross-validation]);
//   2. the best row's deflated Sharpe ratio over the effective number of
//      trials at least 0.95 (Note [Effective number of trials]; the naive
//      DSR, every combination a trial, is shown beside it but not used: it
//      counts correlated and losing combinations as luck);
//   3. the SPA p-value (Hansen's consistent one) below StepM's size, 0.05
//      by default: the best return is not what searching every combination
//      finds by luck against the benchmark, cash or buy and hold (Note
//      [Reality Check, SPA and StepM]);
//   4. the CPCV: the selection's out-of-sample Sharpe ratio is above 0 on
//      average over the paths, and at or below 0 on at most a quarter of
//      them (Note [Combinatorial purged cross-validation]).
// "Evidence of an edge" when all four ran and hold; "no evidence of an
// edge" when one that ran fails or is undefined (Note [Undefined
// statistics]), whatever else ran; "undecided" when none that ran failed
// but one did not run (the verdict names the option it needs: --pbo,
// --returns or --spa, --spa, --cpcv). The "best row" is the first of the
// deflated rows: the ranking's first. Walk-forward is reported, not used:
// a single path of re-selections, which the CPCV's paths generalize.
// The thresholds are constants here and in docs/VALIDATION.md; the Monte
// Carlo test of the rule (validation_monte_carlo_test) states the markets
// on which it says "evidence" and "no evidence", and how often.
inline constexpr double kVerdictMaxPbo = 0.2;
inline constexpr double kVerdictMinDsr = 0.95;
inline constexpr double kVerdictMaxShareNotPositive = 0.25;

enum class VerdictDecision { Evidence, NoEvidence, Undecided };

struct VerdictCheck {
    std::string test;       // "pbo", "clustered_dsr", "spa", "cpcv"
    bool ran = false;
    bool passed = false;
    double value = 0.0;     // the statistic the rule reads (NaN: undefined)
    std::string reading;    // the statistic against its threshold, or why it did not run
};

struct Verdict {
    VerdictDecision decision = VerdictDecision::Undecided;
    std::vector<VerdictCheck> checks;  // in the order above
};

Verdict decide_verdict(const SweepValidation& validation);

// "evidence of an edge", "no evidence of an edge" or "undecided".
const char* decision_name(VerdictDecision decision);

// The decision with its reasons, then a paragraph on each test a user can
// act on: how likely the ranking is overfit, whether the best row's Sharpe
// ratio survives deflation, walk-forward, the SPA.
std::string validation_verdict(const SweepValidation& validation);

}  // namespace btforge
