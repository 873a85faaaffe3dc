#include "host/validation/sweep_validation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>

#include "host/engine/rank_tier.h"
#include "host/engine/worker_threads.h"
#include "host/validation/period_performance.h"
#include "host/validation/return_streams.h"

namespace btforge {

namespace {

// Rows a worker scores at a time (run_tiles).
constexpr std::uint64_t kRowTile = 4096;

// sweep_trials' fold: `count` trials whose whole-window Sharpe ratios are
// `sharpe` (NaN: left out, its sums not finite), in a fixed order.
SweepTrials trials_of_sharpe_ratios(std::uint64_t count, const std::vector<double>& sharpe,
                                    const std::vector<unsigned char>& finite) {
    SweepTrials t;
    t.trials = count;
    if (count == 0) return t;
    double mean = 0.0, m2 = 0.0;
    std::uint64_t counted = 0;
    for (std::size_t n = 0; n < sharpe.size(); ++n) {
        if (finite[n] == 0) continue;
        ++counted;
        const double delta = sharpe[n] - mean;
        mean += delta / static_cast<double>(counted);
        m2 += delta * (sharpe[n] - mean);
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (t.trials == 1) {
        t.sharpe_variance = nan;
        t.sharpe_variance_undefined = kOneCombination;
        t.expected_max_sharpe = 0.0;  // one trial: nothing was selected, SR0 = 0
        return t;
    }
    if (counted < 2) {
        t.sharpe_variance = t.expected_max_sharpe = nan;
        t.sharpe_variance_undefined = t.expected_max_sharpe_undefined =
            "fewer than two combinations have finite period returns";
        return t;
    }
    t.sharpe_variance = m2 / static_cast<double>(counted - 1);
    if (!(t.sharpe_variance > 0.0)) {
        t.expected_max_sharpe = nan;
        t.expected_max_sharpe_undefined = kZeroTrialVariance;
        return t;
    }
    t.expected_max_sharpe = expected_maximum_sharpe(static_cast<double>(t.trials), t.sharpe_variance);
    return t;
}

// A row's whole-window Sharpe ratio for the trials' variance, and whether
// its sums are finite (the others are left out).
std::pair<double, unsigned char> trial_sharpe(std::span<const PeriodStatistics> row, int n_periods) {
    const ReturnMoments m = moments_of_periods(row, (std::uint32_t{1} << n_periods) - 1);
    if (m.undefined == kNotFiniteReturns) return {std::numeric_limits<double>::quiet_NaN(), 0};
    return {m.sharpe, 1};
}

}  // namespace

SweepTrials sweep_trials(std::span<const PeriodStatistics> periods, int n_periods, int threads) {
    const std::size_t width = static_cast<std::size_t>(n_periods);
    if (width == 0 || periods.size() % width != 0) return SweepTrials{};
    const std::uint64_t count = periods.size() / width;
    // Welford over every combination's whole-window Sharpe ratio (the same
    // as sharpe_of_periods'), leaving out the sums that are not finite. The
    // ratios are computed on `threads` (each row read once), the fold runs
    // in ordinal order: the same bits for any thread count.
    std::vector<double> sharpe(count);
    std::vector<unsigned char> finite(count);
    run_tiles(threads, count, kRowTile, [&](std::uint64_t, std::uint64_t first, std::uint64_t end) {
        for (std::uint64_t n = first; n < end; ++n) {
            std::tie(sharpe[n], finite[n]) = trial_sharpe(periods.subspan(n * width, width), n_periods);
        }
    });
    return trials_of_sharpe_ratios(count, sharpe, finite);
}

ClusteredTrials clustered_trials(std::span<const PeriodStatistics> periods, int n_periods, TrialClusters clusters) {
    const std::size_t width = static_cast<std::size_t>(n_periods);
    ClusteredTrials c;
    std::vector<unsigned char> finite;
    for (const TrialCluster& cluster : clusters.clusters) {
        const auto [ratio, is_finite] = trial_sharpe(periods.subspan(cluster.representative * width, width), n_periods);
        c.representative_sharpe.push_back(ratio);
        finite.push_back(is_finite);
    }
    c.trials = trials_of_sharpe_ratios(clusters.clusters.size(), c.representative_sharpe, finite);
    if (clusters.clusters.empty()) {
        c.trials.sharpe_variance = c.trials.expected_max_sharpe = std::numeric_limits<double>::quiet_NaN();
        c.trials.sharpe_variance_undefined = c.trials.expected_max_sharpe_undefined =
            "no combination has finite returns";
    }
    c.clusters = std::move(clusters);
    return c;
}

DeflatedRow deflate_row(std::span<const PeriodStatistics> periods, int n_periods, const SweepTrials& trials,
                        SweepRowRef ref, const ClusteredTrials* clustered) {
    const std::size_t width = static_cast<std::size_t>(n_periods);
    DeflatedRow row;
    row.combination_id = ref.combination_id;
    row.moments = moments_of_periods(periods.subspan(ref.ordinal * width, width), (std::uint32_t{1} << n_periods) - 1);
    row.psr_undefined = psr_undefined(row.moments);
    row.dsr_undefined = row.psr_undefined != nullptr ? row.psr_undefined : trials.expected_max_sharpe_undefined;
    row.psr = probabilistic_sharpe_ratio(row.moments, 0.0);
    row.dsr = probabilistic_sharpe_ratio(row.moments, trials.expected_max_sharpe);
    if (clustered != nullptr) {
        row.clustered_dsr_undefined =
            row.psr_undefined != nullptr ? row.psr_undefined : clustered->trials.expected_max_sharpe_undefined;
        row.clustered_dsr = probabilistic_sharpe_ratio(row.moments, clustered->trials.expected_max_sharpe);
        row.cluster = clustered->clusters.cluster_of[ref.ordinal];
    } else {
        row.clustered_dsr = std::numeric_limits<double>::quiet_NaN();
    }
    return row;
}

std::vector<SweepRowRef> rank_by_deflated_sharpe(std::span<const PeriodStatistics> periods, int n_periods,
                                                 std::size_t top_n, int min_trades,
                                                 const std::function<std::uint64_t(std::uint64_t)>& combination_id,
                                                 int threads, const std::function<bool(std::uint64_t)>& ranked) {
    const SweepTrials trials = sweep_trials(periods, n_periods, threads);
    const std::size_t width = static_cast<std::size_t>(n_periods);
    const std::uint32_t all = (std::uint32_t{1} << n_periods) - 1;
    struct Ranked {
        RankTier tier;
        double z;
        SweepRowRef row;
    };
    // By group, then higher z, then the smaller id: Note [Deterministic ranking].
    const auto before = [](const Ranked& a, const Ranked& b) {
        if (a.tier != b.tier) return a.tier < b.tier;
        if (a.tier != RankTier::Invalid && a.z != b.z) return a.z > b.z;
        return a.row.combination_id < b.row.combination_id;
    };
    // Every row's z and tier on `threads`; the heap takes them in ordinal
    // order, so the rows kept are the same for any thread count.
    std::vector<double> z_of(trials.trials);
    std::vector<RankTier> tier_of(trials.trials);
    run_tiles(threads, trials.trials, kRowTile, [&](std::uint64_t, std::uint64_t first, std::uint64_t end) {
        for (std::uint64_t n = first; n < end; ++n) {
            const auto row = periods.subspan(n * width, width);
            const ReturnMoments m = moments_of_periods(row, all);
            const double z = probabilistic_sharpe_statistic(m, trials.expected_max_sharpe);
            long long trades = 0;
            for (const PeriodStatistics& p : row) trades += p.trades;
            RankTier tier = RankTier::Ranked;
            if (std::isnan(z)) {
                tier = RankTier::Invalid;  // the DSR is undefined
            } else if (trades < min_trades) {
                tier = RankTier::FewTrades;
            }
            z_of[n] = z;
            tier_of[n] = tier;
        }
    });
    std::vector<Ranked> top;  // a heap: its front is the worst kept
    for (std::uint64_t n = 0; n < trials.trials; ++n) {
        if (ranked && !ranked(n)) continue;
        const Ranked r{tier_of[n], z_of[n], {n, combination_id(n)}};
        if (top.size() < top_n) {
            top.push_back(r);
            std::push_heap(top.begin(), top.end(), before);
        } else if (top_n > 0 && before(r, top.front())) {
            std::pop_heap(top.begin(), top.end(), before);
            top.back() = r;
            std::push_heap(top.begin(), top.end(), before);
        }
    }
    std::sort(top.begin(), top.end(), before);
    std::vector<SweepRowRef> rows;
    for (const Ranked& r : top) rows.push_back(r.row);
    return rows;
}

SweepValidation validate_sweep(std::span<const PeriodStatistics> periods, const ValidationRequest& request) {
    SweepValidation v;
    v.n_periods = request.n_periods;
    const std::size_t width = static_cast<std::size_t>(request.n_periods);
    if (width == 0 || periods.size() % width != 0) return v;
    const SweepTrials trials = sweep_trials(periods, request.n_periods, request.threads);
    v.trials = trials.trials;
    v.sharpe_variance = trials.sharpe_variance;
    v.expected_max_sharpe = trials.expected_max_sharpe;
    v.sharpe_variance_undefined = trials.sharpe_variance_undefined;
    v.expected_max_sharpe_undefined = trials.expected_max_sharpe_undefined;
    std::vector<double> streams;
    v.daily_returns = request.daily_returns;
    if (request.return_parts > 0) {
        streams = returns_of_equity_marks(request.equity_marks, request.return_parts, request.initial_equity);
        v.seed = request.seed;
        TrialClusterOptions options;
        options.seed = request.seed;
        options.threads = request.threads;
        v.clustered = clustered_trials(
            periods, request.n_periods,
            cluster_trials(streams, streams.size() / static_cast<std::size_t>(request.return_parts),
                           request.return_parts, options));
    }
    for (const SweepRowRef& row : request.top_rows) {
        v.deflated.push_back(deflate_row(periods, request.n_periods, trials, row, v.clustered ? &*v.clustered : nullptr));
    }
    if (request.walk_forward) {
        v.walk_forward = walk_forward(periods, request.n_periods, *request.walk_forward, request.score, request.threads);
    }
    if (request.pbo) {
        v.pbo = request.overfitting ? request.overfitting(periods, request.n_periods, request.pbo_options)
                                    : probability_of_backtest_overfitting(periods, request.n_periods, request.pbo_options);
    }
    if (request.cpcv) v.cpcv = combinatorial_purged_cv(periods, request.n_periods, *request.cpcv, request.pbo_options);
    if (request.spa) {
        const StationaryBootstrapPlan& plan = *request.spa;
        if (plan.observations != request.return_parts) {
            throw std::invalid_argument("validate_sweep: the bootstrap's observations are not the return streams' parts");
        }
        // Against buy and hold, the differentials are each stream less the
        // benchmark's (the clusters above took the streams themselves).
        if (!request.benchmark_marks.empty()) {
            const std::vector<double> benchmark =
                returns_of_equity_marks(request.benchmark_marks, request.return_parts, request.initial_equity);
            if (benchmark.size() != static_cast<std::size_t>(request.return_parts)) {
                throw std::invalid_argument("validate_sweep: the benchmark's marks are not one stream of the parts");
            }
            for (std::size_t i = 0; i < streams.size(); ++i) streams[i] -= benchmark[i % benchmark.size()];
            v.spa_benchmark = "buy and hold";
        }
        SpaOptions options;
        options.mean_block = plan.mean_block;
        options.size = request.spa_size;
        options.threads = request.threads;
        options.scanned = request.pbo_options.scanned;
        options.cancel = request.pbo_options.cancel;
        options.device = request.bootstrap;
        v.spa = superior_predictive_ability(
            Differentials{streams, streams.size() / static_cast<std::size_t>(plan.observations), plan.observations},
            stationary_bootstrap_counts(plan), options);
    }
    return v;
}

}  // namespace btforge
