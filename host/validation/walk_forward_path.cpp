#include "host/validation/walk_forward_path.h"

#include <stdexcept>
#include <string>

#include "reference/metrics/metrics.h"

namespace btforge {

void append_walk_forward_leg(StitchedPath& path, const WalkForwardLeg& leg, int n_periods, double initial_equity,
                             std::span<const double> equity, std::span<const FillRecord> fills) {
    const int n_bars = static_cast<int>(equity.size());
    if (leg.out_of_sample_period < 0 || leg.out_of_sample_period >= n_periods) {
        throw std::invalid_argument("walk-forward step " + std::to_string(leg.step) + " trades period " +
                                    std::to_string(leg.out_of_sample_period) + " of " + std::to_string(n_periods));
    }
    const auto first = static_cast<int>(period_first_bar(leg.out_of_sample_period, n_bars, n_periods));
    const auto end = static_cast<int>(period_first_bar(leg.out_of_sample_period + 1, n_bars, n_periods));
    // Note [Stitched walk-forward path]
    const double base = first == 0 ? initial_equity : equity[static_cast<std::size_t>(first - 1)];
    const double start = path.equity.empty() ? initial_equity : path.equity.back();
    for (int t = first; t < end; ++t) {
        path.bars.push_back(t);
        path.bar_steps.push_back(leg.step);
        path.equity.push_back(base > 0.0 ? start * (equity[static_cast<std::size_t>(t)] / base) : start);
    }
    for (const FillRecord& f : fills) {
        if (f.bar >= first && f.bar < end) path.fills.push_back(StitchedFill{leg.step, leg.combination_id, f});
    }
}

}  // namespace btforge
