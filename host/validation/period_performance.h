#pragma once

#include <cstdint>
#include <span>

#include "reference/metrics/period_statistics.h"

namespace btforge {

// Performance of a union of periods, from the period statistics alone (Note
// [Period statistics]): what walk-forward and the probability of backtest
// overfitting rank combinations by. `mask` selects the periods (bit p:
// period p); sums are taken in period order.

// The per-bar Sharpe ratio (Note [Sharpe ratios per observation]): mean /
// population standard deviation, the variance as Σr²/n - mean². 0 when the
// union has no bar or no spread, as the metrics' sharpe is.
double sharpe_of_periods(std::span<const PeriodStatistics> periods, std::uint32_t mask);

// The per-bar Sortino ratio: mean / sqrt(Σ min(r, 0)² / n); 0 without a
// downside.
double sortino_of_periods(std::span<const PeriodStatistics> periods, std::uint32_t mask);

// The compounded return over contiguous periods [first, last]: the last
// one's end equity over the first one's start equity, minus 1 (a run's
// equity carries from one period to the next, so this is exact).
double return_of_periods(std::span<const PeriodStatistics> periods, int first, int last);

// Bars in the union.
std::int64_t bars_of_periods(std::span<const PeriodStatistics> periods, std::uint32_t mask);

}  // namespace btforge
