#include "host/validation/sweep_validation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "host/engine/rank_tier.h"
#include "host/engine/worker_threads.h"
#include "host/validation/period_performance.h"
#include "host/validation/return_streams.h"

namespace btforge {

namespace {

std::string percent(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f%%", 100.0 * x);
    return text;
}

std::string fixed(double x, int digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, x);
    return text;
}

// Rows a worker scores at a time (run_tiles).
constexpr std::uint64_t kRowTile = 4096;

}  // namespace

SweepTrials sweep_trials(std::span<const PeriodStatistics> periods, int n_periods, int threads) {
    SweepTrials t;
    const std::size_t width = static_cast<std::size_t>(n_periods);
    if (width == 0 || periods.size() % width != 0) return t;
    t.trials = periods.size() / width;
    if (t.trials == 0) return t;
    const std::uint32_t all = (std::uint32_t{1} << n_periods) - 1;
    // Welford over every combination's whole-window Sharpe ratio (the same
    // as sharpe_of_periods'), leaving out the sums that are not finite. The
    // ratios are computed on `threads` (each row read once), the fold runs
    // in ordinal order: the same bits for any thread count.
    constexpr double kLeftOut = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> sharpe(t.trials);
    std::vector<unsigned char> finite(t.trials);
    run_tiles(threads, t.trials, kRowTile, [&](std::uint64_t, std::uint64_t first, std::uint64_t end) {
        for (std::uint64_t n = first; n < end; ++n) {
            const ReturnMoments m = moments_of_periods(periods.subspan(n * width, width), all);
            finite[n] = m.undefined == kNotFiniteReturns ? 0 : 1;
            sharpe[n] = finite[n] != 0 ? m.sharpe : kLeftOut;
        }
    });
    double mean = 0.0, m2 = 0.0;
    std::uint64_t counted = 0;
    for (std::uint64_t n = 0; n < t.trials; ++n) {
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

DeflatedRow deflate_row(std::span<const PeriodStatistics> periods, int n_periods, const SweepTrials& trials,
                        SweepRowRef ref) {
    const std::size_t width = static_cast<std::size_t>(n_periods);
    DeflatedRow row;
    row.combination_id = ref.combination_id;
    row.moments = moments_of_periods(periods.subspan(ref.ordinal * width, width), (std::uint32_t{1} << n_periods) - 1);
    row.psr_undefined = psr_undefined(row.moments);
    row.dsr_undefined = row.psr_undefined != nullptr ? row.psr_undefined : trials.expected_max_sharpe_undefined;
    row.psr = probabilistic_sharpe_ratio(row.moments, 0.0);
    row.dsr = probabilistic_sharpe_ratio(row.moments, trials.expected_max_sharpe);
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
    for (const SweepRowRef& row : request.top_rows) v.deflated.push_back(deflate_row(periods, request.n_periods, trials, row));
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
        const std::vector<double> streams =
            returns_of_equity_marks(request.equity_marks, plan.observations, request.initial_equity);
        SpaOptions options;
        options.mean_block = plan.mean_block;
        options.size = request.spa_size;
        options.threads = request.threads;
        options.scanned = request.pbo_options.scanned;
        options.cancel = request.pbo_options.cancel;
        v.spa = superior_predictive_ability(
            Differentials{streams, streams.size() / static_cast<std::size_t>(plan.observations), plan.observations},
            stationary_bootstrap_counts(plan), options);
        v.spa_seed = plan.seed;
    }
    return v;
}

std::string validation_verdict(const SweepValidation& v) {
    std::string text;
    if (v.pbo && !v.pbo->cancelled) {
        const OverfittingReport& p = *v.pbo;
        if (p.undefined != nullptr) {
            text += "The probability of backtest overfitting is undefined (" + std::string(p.undefined) +
                    "): no split of the " + std::to_string(p.periods) + " periods in half ranks anything. ";
        } else {
            const std::string splits = std::to_string(p.informative_splits) + " ways to split the " +
                                       std::to_string(p.periods) + " periods in half";
            const std::string others =
                p.informative_splits == p.splits.size()
                    ? ""
                    : " that rank anything (in the other " + std::to_string(p.splits.size() - p.informative_splits) +
                          ", every combination ties in one half)";
            text += "Probability of backtest overfitting " + fixed(p.pbo, 2) + ": in " + percent(p.pbo) + " of the " +
                    splits + others + ", the best combination of one half ranked at or below the median in the other. ";
            if (p.pbo >= 0.5) {
                text += "Picking the in-sample winner is no better than picking at random: the ranking is most "
                        "likely overfit. ";
            } else if (p.pbo >= 0.2) {
                text += "The ranking carries some information, but an in-sample winner often disappoints: prefer "
                        "parameter regions that rank well throughout over the single best row. ";
            } else {
                text += "In-sample winners tend to stay above the median out of sample. ";
            }
            text += "An out-of-sample loss followed in " + percent(p.probability_of_loss) + " of the splits. ";
        }
    }
    if (!v.deflated.empty()) {
        const DeflatedRow& best = v.deflated.front();
        if (best.dsr_undefined != nullptr) {
            text += "The best row's deflated Sharpe ratio is undefined (" + std::string(best.dsr_undefined) + ").";
        } else if (v.trials == 1) {
            text += "With one trial nothing was selected: the row's deflated Sharpe ratio is its PSR(0), " +
                    fixed(best.dsr, 2) + (best.dsr >= 0.95 ? ", significant at 95%." : ", not significant at 95%.");
        } else {
            text += "The best row's deflated Sharpe ratio is " + fixed(best.dsr, 2) + " (" +
                    std::to_string(v.trials) + " trials): ";
            text += best.dsr >= 0.95 ? "its Sharpe ratio is significant at 95% even against the best of that many "
                                       "trials by luck."
                                     : "not significant at 95%: the best of that many trials, their Sharpe ratios as "
                                       "spread as these, would reach it by luck (the deflated Sharpe ratio counts "
                                       "the spread as luck).";
        }
    }
    if (v.walk_forward) {
        const WalkForwardReport& w = *v.walk_forward;
        text += " Walk-forward (" + describe_walk_forward(w.plan) + "): ";
        const bool selected = std::any_of(w.steps.begin(), w.steps.end(),
                                          [](const WalkForwardStep& s) { return s.selection_undefined == nullptr; });
        if (selected) {
            text += "re-optimizing at every step and trading the next period returned ";
        } else {
            text += "no step selected anything (" + std::string(w.efficiency_undefined) +
                    "), so the stitched path is the first combination's own out-of-sample periods, which returned ";
        }
        text += fixed(100.0 * w.stitched_return, 2) + "% over " + std::to_string(w.steps.size()) +
                " out-of-sample periods";
        if (std::isfinite(w.efficiency)) text += ", an efficiency of " + fixed(w.efficiency, 2);
        text += ".";
    }
    if (v.spa && !v.spa->cancelled) {
        const SpaReport& s = *v.spa;
        text += " Against holding cash, over every combination's returns in " + std::to_string(s.observations) +
                " parts of the window: ";
        if (s.undefined != nullptr) {
            text += "the Reality Check and SPA are undefined (" + std::string(s.undefined) + ").";
        } else {
            text += "Reality Check p-value " + fixed(s.pvalue_upper, 3) + ", SPA p-value " +
                    fixed(s.pvalue_consistent, 3) + " (" + std::to_string(s.resamples) + " resamples). ";
            text += s.pvalue_consistent < s.size
                        ? "The best return is unlikely to be what searching " + std::to_string(s.combinations) +
                              " combinations finds by luck. "
                        : "The best return is within what searching " + std::to_string(s.combinations) +
                              " combinations finds by luck. ";
            text += "StepM names " + std::to_string(s.superior.size()) +
                    (s.superior.size() == 1 ? " combination" : " combinations") + " that beat cash at a family-wise "
                    "error rate of " + percent(s.size) + ".";
        }
    }
    return text;
}

}  // namespace btforge
