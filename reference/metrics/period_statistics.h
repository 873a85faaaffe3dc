#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Period statistics]
// SPEC §11: besides the whole window's metrics, a run can report the
// statistics of S contiguous periods of its window (S = config.n_periods,
// 0..kMaxPeriods; 0: none), accumulated in the same pass over the bars while
// trading continues across period boundaries. Period p holds the bars
// [p * n / S, (p + 1) * n / S) of the n bars (integer division: the periods
// differ by at most one bar). From these sums the Sharpe or Sortino ratio of
// any union of periods is exact arithmetic on the sums, which is what
// walk-forward and the probability of backtest overfitting evaluate, for
// every combination, without the bars:
//   return_sum, return_sum_squares, downside_sum_squares: Σ r, Σ r², Σ min(r, 0)²
//     of the per-bar returns r (as the metrics define them) of its bars;
//   return_sum_cubes, return_sum_fourths: Σ r³, Σ r⁴, from which the
//     skewness and kurtosis of any union of periods follow (the deflated
//     Sharpe ratio needs them: Note [Moments from power sums] in host/
//     validation/period_performance.h);
//   start_equity: marked at the close before its first bar (the initial
//     equity for period 0); end_equity: at the close of its last bar;
//   max_drawdown: the largest fall of close-marked equity from its highest
//     value since the period began (start_equity included), as a fraction of
//     that peak;
//   trades, wins, gross_profit, gross_loss: of the round trips that closed
//     in the period (a trade belongs to the period of its final close);
//   fees, funding: the account's fees and net funding paid during it.
// Summed over the periods, bars, trades and wins equal the whole window's
// exactly; the real sums equal the whole window's up to rounding: S partial
// sums added up instead of one running sum (gross profit and loss, the
// return sums), or differences of the account's running totals (fees,
// funding), so the difference is a few ulps of the largest partial sum per
// period (parity-tests check the bound).
BT_KERNEL inline constexpr int kMaxPeriods = 16;

struct BT_KERNEL PeriodStatistics {
    double return_sum;
    double return_sum_squares;
    double downside_sum_squares;
    double return_sum_cubes;
    double return_sum_fourths;
    double start_equity;
    double end_equity;
    double max_drawdown;
    double gross_profit;
    double gross_loss;
    double fees;
    double funding;
    int bars;
    int trades;
    int wins;
    int reserved;  // keeps the size a multiple of 8 on every side; always 0
};

}  // namespace btforge
