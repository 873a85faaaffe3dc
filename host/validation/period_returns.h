#pragma once

#include <cstdint>
#include <span>

namespace btforge {

// The per-bar return sums of one combination over one period of the window
// (SPEC §11: S contiguous periods of equal bar counts): what a Sharpe or
// Sortino ratio of any union of periods needs, so a selection of periods is
// evaluated exactly from sums, without the bars.
struct PeriodReturns {
    double sum = 0.0;                   // Σ r
    double sum_squares = 0.0;           // Σ r²
    double downside_sum_squares = 0.0;  // Σ min(r, 0)²
    std::int64_t bars = 0;
};

// The per-bar Sharpe ratio (Note [Sharpe ratios per observation]) of the
// union of the periods `mask` selects (bit p: period p), with the population
// variance Σr²/n - mean², summed in period order. 0 when the union has no
// bar or no variance, as the metrics' sharpe is 0 without a spread.
double sharpe_of_periods(std::span<const PeriodReturns> periods, std::uint32_t mask);

}  // namespace btforge
