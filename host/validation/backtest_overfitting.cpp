#include "host/validation/backtest_overfitting.h"

#include <bit>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>

#include "host/engine/worker_threads.h"

namespace btforge {

namespace {


OverfittingSplit evaluate_split(std::span<const PeriodStatistics> returns, int periods, std::uint64_t n_combinations,
                                std::uint32_t mask, std::vector<double>& out_of_sample) {
    const std::uint32_t all = (std::uint32_t{1} << periods) - 1;
    OverfittingSplit split;
    split.in_sample_mask = mask;
    double best = 0.0;
    for (std::uint64_t n = 0; n < n_combinations; ++n) {
        const auto row = returns.subspan(n * static_cast<std::size_t>(periods), static_cast<std::size_t>(periods));
        const double in_sample = sharpe_of_periods(row, mask);
        out_of_sample[n] = sharpe_of_periods(row, all & ~mask);
        if (n == 0 || in_sample > best) {
            best = in_sample;
            split.winner = n;
        }
    }
    split.in_sample_sharpe = best;
    split.out_of_sample_sharpe = out_of_sample[split.winner];
    std::uint64_t below = 0;
    std::uint64_t equal = 0;
    for (std::uint64_t n = 0; n < n_combinations; ++n) {
        if (out_of_sample[n] < split.out_of_sample_sharpe) ++below;
        if (n != split.winner && out_of_sample[n] == split.out_of_sample_sharpe) ++equal;
    }
    split.relative_rank = (1.0 + static_cast<double>(below) + static_cast<double>(equal) / 2.0) /
                          (static_cast<double>(n_combinations) + 1.0);
    split.logit = std::log(split.relative_rank / (1.0 - split.relative_rank));
    return split;
}

}  // namespace

std::vector<std::uint32_t> cscv_split_masks(int periods) {
    std::vector<std::uint32_t> masks;
    for (std::uint32_t mask = 0; mask < (std::uint32_t{1} << periods); ++mask) {
        if (std::popcount(mask) * 2 == periods) masks.push_back(mask);
    }
    return masks;
}

OverfittingReport probability_of_backtest_overfitting(std::span<const PeriodStatistics> returns, int periods,
                                                      const OverfittingOptions& options) {
    if (periods < 2 || periods > kMaxPeriods || periods % 2 != 0) {
        throw std::invalid_argument("the probability of backtest overfitting needs an even number of periods in 2.." +
                                    std::to_string(kMaxPeriods) + ", got " + std::to_string(periods));
    }
    if (returns.empty() || returns.size() % static_cast<std::size_t>(periods) != 0) {
        throw std::invalid_argument("the period returns are not whole rows of " + std::to_string(periods) +
                                    " periods (" + std::to_string(returns.size()) + " values)");
    }
    const auto started = std::chrono::steady_clock::now();
    OverfittingReport report;
    report.periods = periods;
    report.combinations = returns.size() / static_cast<std::size_t>(periods);
    const std::vector<std::uint32_t> masks = cscv_split_masks(periods);
    report.splits.resize(masks.size());

    std::atomic<std::size_t> next{0};
    std::mutex failure_mutex;
    std::exception_ptr failure;
    const WorkerThreads ran = run_worker_threads(options.threads, [&] {
        try {
            std::vector<double> out_of_sample(report.combinations);
            for (std::size_t s = next++; s < masks.size(); s = next++) {
                if (options.cancel != nullptr && options.cancel->load()) return;
                report.splits[s] = evaluate_split(returns, periods, report.combinations, masks[s], out_of_sample);
                if (options.splits_done != nullptr) options.splits_done->fetch_add(1);
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(failure_mutex);
            if (!failure) failure = std::current_exception();
        }
    });
    if (failure) std::rethrow_exception(failure);
    report.threads = ran.started;
    if (options.cancel != nullptr && options.cancel->load()) {
        report.cancelled = true;
        return report;
    }

    // In split order: the same sums for any thread count.
    double at_or_below_median = 0.0;
    double losses = 0.0;
    double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
    for (const OverfittingSplit& split : report.splits) {
        if (split.logit <= 0.0) at_or_below_median += 1.0;
        if (split.out_of_sample_sharpe < 0.0) losses += 1.0;
        sx += split.in_sample_sharpe;
        sy += split.out_of_sample_sharpe;
        sxx += split.in_sample_sharpe * split.in_sample_sharpe;
        sxy += split.in_sample_sharpe * split.out_of_sample_sharpe;
    }
    const double count = static_cast<double>(report.splits.size());
    report.pbo = at_or_below_median / count;
    report.probability_of_loss = losses / count;
    const double spread = count * sxx - sx * sx;
    report.degradation_slope = spread > 0.0 ? (count * sxy - sx * sy) / spread : 0.0;
    report.degradation_intercept = (sy - report.degradation_slope * sx) / count;
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return report;
}

}  // namespace btforge
