#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "host/report/round_trips.h"

namespace btforge {

// Note [Statistics of a replay]
// What a quant reads first of one row, beside the metrics every row has
// (SPEC §7): computed from the replayed row's close-marked equity, its
// round trips and the buy-and-hold benchmark (Note [Buy-and-hold
// benchmark], marked at every bar), on the CPU after the replay, so the
// kernels carry none of it (docs/SPEC.md §7 defines each):
// - cagr: (E_last / E_0)^(1 / years) - 1, years = bars / bars per year
//   (the data's spacing, as the Sharpe ratio's); -1 once equity is at or
//   below zero;
// - volatility: the population standard deviation of the per-bar equity
//   returns (the Sharpe ratio's), times the square root of bars per year;
// - max_drawdown_bars: the most consecutive bars whose equity is below the
//   running peak (the initial equity the first peak);
//   max_drawdown_duration_ms: that run's time, from its peak's bar (the
//   first bar for the initial equity) to the first bar back at or above
//   the peak, or to the last bar where equity never got back;
// - best_trade and worst_trade: the largest and smallest net PnL of a round
//   trip (NaN without one);
// - buy_and_hold_return: the benchmark's last mark over the initial equity,
//   minus 1.
struct ReplayStatistics {
    double cagr = 0.0;
    double volatility = 0.0;
    int max_drawdown_bars = 0;
    std::int64_t max_drawdown_duration_ms = 0;
    double best_trade = 0.0;
    double worst_trade = 0.0;
    double buy_and_hold_return = 0.0;
};

// `equity` and `benchmark` hold one value per bar of the window, whose
// timestamps are `time_ms`.
ReplayStatistics replay_statistics(std::span<const double> equity, std::span<const std::int64_t> time_ms,
                                   double initial_equity, double bars_per_year,
                                   std::span<const RoundTrip> round_trips, std::span<const double> benchmark);

// "statistics:" and a line "  name: value" for each, in the order above, as the replay command prints
// them after the metrics (whose lines are "name=value", the sweep's columns).
std::string format_replay_statistics(const ReplayStatistics& statistics);

}  // namespace btforge
