#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "host/spec/combination_space.h"
#include "host/spec/strategy_spec.h"
#include "host/validation/sweep_validation.h"

namespace btforge {

// Where the periods of a run lie (Note [Period statistics]): each one's first
// and last bar time, ISO-8601.
using PeriodSpans = std::vector<std::pair<std::string, std::string>>;

// What a sweep prints after its ranked table (Note [Validation of a sweep]):
// the walk-forward steps and stitched path, the probability of backtest
// overfitting with the spread of its logits, the deflated Sharpe ratios of
// the top rows, and the verdict. Sharpe ratios print annualized by
// bars_per_year, as the metrics' do.
std::string format_validation(const SweepValidation& validation, const StrategySpec& spec,
                              const CombinationSpace& space, const PeriodSpans& spans, double bars_per_year);

// The same as JSON, with every split's logit and every step.
void write_validation_json(std::ostream& out, const SweepValidation& validation, const StrategySpec& spec,
                           const CombinationSpace& space, const PeriodSpans& spans, double bars_per_year);

// One line per walk-forward step: periods and their times, the winner and
// its parameters, in- and out-of-sample score, return, Sharpe ratio.
void write_walk_forward_csv(std::ostream& out, const WalkForwardReport& report, const StrategySpec& spec,
                            const CombinationSpace& space, const PeriodSpans& spans, double bars_per_year);

}  // namespace btforge
