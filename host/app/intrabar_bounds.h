#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "host/data/market.h"
#include "host/engine/cpu_sweep.h"
#include "host/engine/top_n.h"
#include "host/spec/combination_space.h"
#include "host/spec/strategy_spec.h"
#include "host/report/order_bounds_writer.h"

namespace btforge {

// Note [Bounds of the order inside a bar]
// `btforge sweep --intrabar-bounds` shows how much the order inside a bar
// moves a row's metrics when the market has no finer bars. After the
// sweep, each kept row (--top, at most kMaxBoundedRows) is replayed on the
// CPU reference twice (a row per task on the sweep's threads), every bar its
// strategy would walk taken as its legs (Note [A bar as three legs]): the
// favourable extreme first (the optimistic order) and the adverse one
// first (the pessimistic order); named by the path, not by the outcome,
// which is not always better on the favourable one. The row's own metrics
// are those of our rule (docs/ACCOUNTING.md §9), which is neither: it takes
// the stop before the targets like the pessimistic order, and a moved stop
// acts from the next bar, unlike either. The three go to
// OUTPUT.bounds.csv, a line per row and order, which the result JSON's
// "intrabar_bounds" names. Only a strategy that walks finer bars (its code
// reads fine_per_bar: the default strategy and band_reversion) can be
// bounded: for another the legs change nothing, so it is refused rather
// than shown without a spread. A market with finer bars (--intrabar) is
// refused too: its path settles the bars already.
inline constexpr std::size_t kMaxBoundedRows = 1'000;

// Refuses (UsageError, naming `option`) a strategy that walks no bar on a
// path or a market with finer bars of its own: the legs cannot bound them.
void check_bar_legs_apply(const StrategyBinding& binding, const std::string& strategy, const Market& market,
                          const std::string& option);

// "rule", "favourable-first" or "adverse-first" (replay --intrabar-order) as
// SweepJob::bar_legs takes it: 0, +1, -1; UsageError otherwise.
int bar_legs_of_order(const std::string& order);

// Replays `rows` (the sweep's kept rows, in rank order) with each order of
// the legs, a row per task on `threads` threads (the same result for any
// count); `job` is the sweep's (its market without finer bars). When
// `cancel` is set it stops early and the result is not to be used.
std::vector<OrderBounds> replay_order_bounds(const SweepJob& job, const StrategySpec& spec,
                                             const CombinationSpace& space, std::span<const ResultRow> rows,
                                             int threads, const std::atomic<bool>* cancel);

}  // namespace btforge
