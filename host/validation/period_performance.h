#pragma once

#include <cstdint>
#include <span>

#include "host/validation/sharpe_statistics.h"
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

// Note [Moments from power sums]
// The skewness and kurtosis of a union of periods, from its power sums
// S_k = Σ r^k (k = 1..4) and n bars, by the raw moments a_k = S_k / n:
//   variance m2 = a2 - μ², m3 = a3 - 3 μ a2 + 2 μ³,
//   m4 = a4 - 4 μ a3 + 6 μ² a2 - 3 μ⁴;  skewness m3 / m2^1.5, kurtosis m4 / m2²
// (population moments, as moments_of_returns). The subtractions cancel only
// as far as μ is comparable to the standard deviation: per-bar returns have
// |μ| far below it (a per-bar Sharpe ratio of 0.1 is already extreme), and
// the relative error of m3 and m4 is then a few ulps times (1 + |μ| / σ)^k;
// the tests hold it to 1e-9 of the two-pass values on bars with a per-bar
// Sharpe ratio up to 0.3. Sharpe is sharpe_of_sums (the CSCV's), skewness 0
// and kurtosis 3 without spread, without bars or with sums that are not
// finite (Sharpe 0 then too), each said in `undefined` (Note [Undefined
// statistics]).
ReturnMoments moments_of_periods(std::span<const PeriodStatistics> periods, std::uint32_t mask);

// Bars in the union.
std::int64_t bars_of_periods(std::span<const PeriodStatistics> periods, std::uint32_t mask);

}  // namespace btforge
