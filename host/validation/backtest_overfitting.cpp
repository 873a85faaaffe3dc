#include "host/validation/backtest_overfitting.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>

#include "host/engine/worker_threads.h"
#include "host/validation/sharpe_statistics.h"

namespace btforge {

namespace {

// Combinations per CPU tile: 512 x 16 periods x 16 bytes = 128 KiB, in a
// core's L2 while every split scans it (Note [CSCV scan]).
constexpr std::uint64_t kTile = 512;

void check_shape(std::size_t values, int periods) {
    if (periods < 1 || periods > kMaxPeriods) {
        throw std::invalid_argument("period statistics come in 1.." + std::to_string(kMaxPeriods) +
                                    " periods, got " + std::to_string(periods));
    }
    if (values == 0 || values % static_cast<std::size_t>(periods) != 0) {
        throw std::invalid_argument("the period returns are not whole rows of " + std::to_string(periods) +
                                    " periods (" + std::to_string(values) + " values)");
    }
}

// One scan on every core: each worker takes tiles of combinations and runs
// every split over its tile, into its own per-split partial results, which
// are merged afterwards (in worker order; the merge rules make the order
// irrelevant anyway). `scan_tile(partial, first, end)` does one tile.
template <class Partial, class ScanTile, class Merge>
std::vector<Partial> scan_on_cpu(const CscvInput& input, std::size_t splits, const Partial& empty,
                                 const OverfittingOptions& options, int& started, ScanTile scan_tile, Merge merge) {
    const std::uint64_t tiles = (input.combinations + kTile - 1) / kTile;
    std::atomic<std::uint64_t> next{0};
    std::mutex mutex;
    std::vector<std::vector<Partial>> partials;
    std::exception_ptr failure;
    const WorkerThreads ran = run_worker_threads(options.threads, [&] {
        try {
            std::vector<Partial> partial(splits, empty);
            for (std::uint64_t t = next++; t < tiles; t = next++) {
                if (options.cancel != nullptr && options.cancel->load()) break;
                const std::uint64_t first = t * kTile;
                const std::uint64_t end = std::min(first + kTile, input.combinations);
                scan_tile(partial, first, end);
                if (options.scanned != nullptr) options.scanned->fetch_add(end - first);
            }
            std::lock_guard<std::mutex> lock(mutex);
            partials.push_back(std::move(partial));
        } catch (...) {
            std::lock_guard<std::mutex> lock(mutex);
            if (!failure) failure = std::current_exception();
        }
    });
    if (failure) std::rethrow_exception(failure);
    started = ran.started;
    std::vector<Partial> merged(splits, empty);
    for (const std::vector<Partial>& partial : partials) {
        for (std::size_t s = 0; s < splits; ++s) merge(merged[s], partial[s]);
    }
    return merged;
}

}  // namespace

std::int64_t CscvInput::bars_of(std::uint32_t mask) const {
    std::int64_t total = 0;
    for (int p = 0; p < periods; ++p) {
        if ((mask >> p & 1u) != 0) total += bars[static_cast<std::size_t>(p)];
    }
    return total;
}

CscvInput pack_cscv_input(std::span<const PeriodStatistics> returns, int periods) {
    if (periods < 2 || periods > kMaxPeriods || periods % 2 != 0) {
        throw std::invalid_argument("the probability of backtest overfitting needs an even number of periods in 2.." +
                                    std::to_string(kMaxPeriods) + ", got " + std::to_string(periods));
    }
    return pack_period_sums(returns, periods);
}

CscvInput pack_period_sums(std::span<const PeriodStatistics> returns, int periods) {
    check_shape(returns.size(), periods);
    CscvInput input;
    input.periods = periods;
    input.combinations = returns.size() / static_cast<std::size_t>(periods);
    input.sums.resize(returns.size());
    for (int p = 0; p < periods; ++p) input.bars[static_cast<std::size_t>(p)] = returns[static_cast<std::size_t>(p)].bars;
    for (std::size_t i = 0; i < returns.size(); ++i) {
        const PeriodStatistics& period = returns[i];
        const std::size_t p = i % static_cast<std::size_t>(periods);
        if (period.bars != input.bars[p]) {
            throw std::invalid_argument("period " + std::to_string(p) + " has " + std::to_string(period.bars) +
                                        " bars in combination " + std::to_string(i / static_cast<std::size_t>(periods)) +
                                        " but " + std::to_string(input.bars[p]) +
                                        " in the first: the periods must cut one window for every combination");
        }
        input.sums[i] = CscvSums{period.return_sum, period.return_sum_squares};
    }
    return input;
}

std::vector<double> cscv_winner_out_of_sample(const CscvInput& input, std::span<const std::uint32_t> masks,
                                              std::span<const CscvBest> winners) {
    std::vector<double> out(masks.size());
    for (std::size_t s = 0; s < masks.size(); ++s) {
        const std::uint32_t oos = input.all_periods() & ~masks[s];
        out[s] = cscv_sharpe(input.row(winners[s].index), input.periods, oos, input.bars_of(oos));
    }
    return out;
}

namespace {

// Why no split is informative (Note [Uninformative splits]).
const char* no_informative_split(const CscvInput& input) {
    if (input.combinations == 1) return kOneCombination;
    const std::size_t width = static_cast<std::size_t>(input.periods);
    const CscvSums* first = input.row(0);
    const bool identical = std::all_of(input.sums.begin(), input.sums.end(), [&](const CscvSums& sums) {
        const CscvSums& same = first[static_cast<std::size_t>(&sums - input.sums.data()) % width];
        return std::memcmp(&sums, &same, sizeof(CscvSums)) == 0;
    });
    if (identical) return kIdenticalReturns;
    return "in every split, all combinations have the same Sharpe ratio in-sample or out of sample: there is no "
           "ranking to test";
}

}  // namespace

OverfittingReport cscv_report(const CscvInput& input, std::span<const std::uint32_t> masks,
                              std::span<const CscvBest> winners, std::span<const CscvCount> counts) {
    OverfittingReport report;
    report.periods = input.periods;
    report.combinations = input.combinations;
    report.splits.resize(masks.size());
    const std::vector<double> out_of_sample = cscv_winner_out_of_sample(input, masks, winners);
    const double n = static_cast<double>(input.combinations);
    // Note [Uninformative splits]: whether all combinations tie on a split's out-of-sample periods.
    const auto all_tie = [&](std::uint32_t in_sample_mask) {
        const auto at = std::lower_bound(masks.begin(), masks.end(), in_sample_mask);
        return counts[static_cast<std::size_t>(at - masks.begin())].equal == input.combinations;
    };
    for (std::size_t s = 0; s < masks.size(); ++s) {
        OverfittingSplit& split = report.splits[s];
        split.in_sample_mask = masks[s];
        split.winner = winners[s].index;
        split.in_sample_sharpe = winners[s].sharpe;
        split.out_of_sample_sharpe = out_of_sample[s];
        // `equal` counts the winner itself; ω counts the others that tie.
        const double others_equal = counts[s].equal > 0 ? static_cast<double>(counts[s].equal - 1) : 0.0;
        split.relative_rank = (1.0 + static_cast<double>(counts[s].below) + others_equal / 2.0) / (n + 1.0);
        split.logit = std::log(split.relative_rank / (1.0 - split.relative_rank));
        split.informative = !all_tie(masks[s]) && !all_tie(input.all_periods() & ~masks[s]);
    }

    // In split order: the same sums for any thread count.
    double at_or_below_median = 0.0;
    double losses = 0.0;
    double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
    for (const OverfittingSplit& split : report.splits) {
        if (!split.informative) continue;
        ++report.informative_splits;
        if (split.logit <= 0.0) at_or_below_median += 1.0;
        if (split.out_of_sample_sharpe < 0.0) losses += 1.0;
        sx += split.in_sample_sharpe;
        sy += split.out_of_sample_sharpe;
        sxx += split.in_sample_sharpe * split.in_sample_sharpe;
        sxy += split.in_sample_sharpe * split.out_of_sample_sharpe;
    }
    if (report.informative_splits == 0) {
        report.undefined = report.degradation_undefined = no_informative_split(input);
        report.pbo = report.probability_of_loss = std::numeric_limits<double>::quiet_NaN();
        report.degradation_slope = report.degradation_intercept = std::numeric_limits<double>::quiet_NaN();
        return report;
    }
    const double count = static_cast<double>(report.informative_splits);
    report.pbo = at_or_below_median / count;
    report.probability_of_loss = losses / count;
    const double spread = count * sxx - sx * sx;
    if (!(spread > 0.0)) {
        report.degradation_undefined = "the winners' in-sample Sharpe ratios do not vary";
        report.degradation_slope = report.degradation_intercept = std::numeric_limits<double>::quiet_NaN();
        return report;
    }
    report.degradation_slope = (count * sxy - sx * sy) / spread;
    report.degradation_intercept = (sy - report.degradation_slope * sx) / count;
    return report;
}

std::vector<CscvBest> in_sample_winners(const CscvInput& input, std::span<const std::uint32_t> masks,
                                        const OverfittingOptions& options, int* threads) {
    std::vector<std::int64_t> in_bars(masks.size());
    for (std::size_t s = 0; s < masks.size(); ++s) in_bars[s] = input.bars_of(masks[s]);
    int started = 1;
    std::vector<CscvBest> winners = scan_on_cpu(
        input, masks.size(), cscv_no_winner(), options, started,
        [&](std::vector<CscvBest>& best, std::uint64_t first, std::uint64_t end) {
            for (std::size_t s = 0; s < masks.size(); ++s) {
                CscvBest b = best[s];
                for (std::uint64_t n = first; n < end; ++n) {
                    cscv_offer(b, cscv_sharpe(input.row(n), input.periods, masks[s], in_bars[s]), n);
                }
                best[s] = b;
            }
        },
        [](CscvBest& into, const CscvBest& other) {
            if (other.index != kCscvNone) cscv_offer(into, other.sharpe, other.index);
        });
    if (threads != nullptr) *threads = started;
    return winners;
}

std::vector<std::uint32_t> cscv_split_masks(int periods) {
    std::vector<std::uint32_t> masks;
    for (std::uint32_t mask = 0; mask < (std::uint32_t{1} << periods); ++mask) {
        if (std::popcount(mask) * 2 == periods) masks.push_back(mask);
    }
    return masks;
}

OverfittingReport probability_of_backtest_overfitting(std::span<const PeriodStatistics> returns, int periods,
                                                      const OverfittingOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    const CscvInput input = pack_cscv_input(returns, periods);
    const std::vector<std::uint32_t> masks = cscv_split_masks(periods);
    std::vector<std::int64_t> out_bars(masks.size());
    for (std::size_t s = 0; s < masks.size(); ++s) out_bars[s] = input.bars_of(input.all_periods() & ~masks[s]);
    const auto cancelled = [&] { return options.cancel != nullptr && options.cancel->load(); };
    int threads = 1;
    const auto scans_started = std::chrono::steady_clock::now();

    // Scan 1: the in-sample winners.
    const std::vector<CscvBest> winners = in_sample_winners(input, masks, options, &threads);
    OverfittingReport cancelled_report;
    cancelled_report.periods = periods;
    cancelled_report.combinations = input.combinations;
    cancelled_report.cancelled = true;
    if (cancelled()) return cancelled_report;

    // Scan 2: every combination's out-of-sample Sharpe ratio against the winner's.
    const std::vector<double> thresholds = cscv_winner_out_of_sample(input, masks, winners);
    const std::vector<CscvCount> counts = scan_on_cpu(
        input, masks.size(), CscvCount{0, 0}, options, threads,
        [&](std::vector<CscvCount>& count, std::uint64_t first, std::uint64_t end) {
            for (std::size_t s = 0; s < masks.size(); ++s) {
                const std::uint32_t oos = input.all_periods() & ~masks[s];
                CscvCount c = count[s];
                for (std::uint64_t n = first; n < end; ++n) {
                    cscv_count(c, cscv_sharpe(input.row(n), periods, oos, out_bars[s]), thresholds[s]);
                }
                count[s] = c;
            }
        },
        [](CscvCount& into, const CscvCount& other) {
            into.below += other.below;
            into.equal += other.equal;
        });
    if (cancelled()) return cancelled_report;
    const double scan_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - scans_started).count();

    OverfittingReport report = cscv_report(input, masks, winners, counts);
    report.threads = threads;
    report.scan_seconds = scan_seconds;
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return report;
}

}  // namespace btforge
