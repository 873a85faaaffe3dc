#include "host/validation/walk_forward.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "host/engine/worker_threads.h"
#include "host/validation/period_performance.h"
#include "host/validation/sharpe_statistics.h"

namespace btforge {

namespace {

std::uint32_t periods_mask(int first, int end) {
    std::uint32_t mask = 0;
    for (int p = first; p < end; ++p) mask |= std::uint32_t{1} << p;
    return mask;
}

double score_of(std::span<const PeriodStatistics> row, int first, int end, WalkForwardScore score) {
    switch (score) {
        case WalkForwardScore::Sharpe: return sharpe_of_periods(row, periods_mask(first, end));
        case WalkForwardScore::Sortino: return sortino_of_periods(row, periods_mask(first, end));
        case WalkForwardScore::TotalReturn: return return_of_periods(row, first, end - 1);
    }
    return 0.0;
}

int first_in_sample(const WalkForwardPlan& plan, int out_of_sample) {
    return plan.window == WalkForwardWindow::Anchored ? 0 : out_of_sample - plan.in_sample_periods;
}

// Note [Walk-forward winners in one pass]
// A step's winner is the best in-sample score in ordinal order, a NaN below
// every number, ties to the smaller ordinal, with the number of ties. Every
// step's is found in one pass over the combinations (each row read once
// for all steps, not once per step), on tiles of combinations in parallel;
// each tile's selection is the same fold run from its own first row, and
// folding the tiles' selections in tile order (absorb) gives what the one
// fold over every ordinal gives, bit for bit: the best is the largest
// number (the first of equal ones; -0 and +0 are equal), the ties count
// the rows equal to it, or every row when all are NaN.
struct Selection {
    double best = 0.0;
    std::uint64_t winner = 0;
    std::uint64_t ties = 0;  // 0: no row yet
};

void offer(Selection& s, double score, std::uint64_t ordinal) {
    if (s.ties == 0 || (!std::isnan(score) && (std::isnan(s.best) || score > s.best))) {
        s.best = score;
        s.winner = ordinal;
        s.ties = 1;
    } else if (score == s.best || (std::isnan(score) && std::isnan(s.best))) {
        ++s.ties;
    }
}

// `later` covers ordinals after all of `earlier`'s.
void absorb(Selection& earlier, const Selection& later) {
    if (later.ties == 0) return;
    if (earlier.ties == 0 || (!std::isnan(later.best) && (std::isnan(earlier.best) || later.best > earlier.best))) {
        earlier = later;
    } else if (later.best == earlier.best || (std::isnan(later.best) && std::isnan(earlier.best))) {
        earlier.ties += later.ties;
    }
}

constexpr std::uint64_t kSelectionTile = 4096;

// One Selection per step (out-of-sample period k .. S-1).
std::vector<Selection> select_winners(std::span<const PeriodStatistics> periods, std::size_t width,
                                      std::uint64_t combinations, const WalkForwardPlan& plan, WalkForwardScore score,
                                      int threads) {
    const int k = plan.in_sample_periods;
    const std::size_t steps = width - static_cast<std::size_t>(k);
    const std::uint64_t tiles = (combinations + kSelectionTile - 1) / kSelectionTile;
    std::vector<Selection> per_tile(tiles * steps);
    run_tiles(threads, combinations, kSelectionTile, [&](std::uint64_t tile, std::uint64_t first, std::uint64_t end) {
        Selection* mine = per_tile.data() + tile * steps;
        for (std::uint64_t n = first; n < end; ++n) {
            const auto row = periods.subspan(n * width, width);
            for (std::size_t i = 0; i < steps; ++i) {
                const int oos = k + static_cast<int>(i);
                offer(mine[i], score_of(row, first_in_sample(plan, oos), oos, score), n);
            }
        }
    });
    std::vector<Selection> selected(steps);
    for (std::uint64_t t = 0; t < tiles; ++t) {
        for (std::size_t i = 0; i < steps; ++i) absorb(selected[i], per_tile[t * steps + i]);
    }
    return selected;
}

}  // namespace

std::optional<WalkForwardPlan> parse_walk_forward(std::string_view text, std::string* error) {
    WalkForwardPlan plan;
    std::string_view mode = text.substr(0, text.find(':'));
    std::string_view count = text.size() > mode.size() ? text.substr(mode.size() + 1) : std::string_view();
    if (mode == "anchored") {
        plan.window = WalkForwardWindow::Anchored;
        plan.in_sample_periods = 1;
    } else if (mode == "rolling") {
        plan.window = WalkForwardWindow::Rolling;
        if (count.empty()) {
            *error = "rolling needs its in-sample length: rolling:K (K periods)";
            return std::nullopt;
        }
    } else {
        *error = "expected anchored, anchored:K or rolling:K, got '" + std::string(text) + "'";
        return std::nullopt;
    }
    if (!count.empty()) {
        int k = 0;
        auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), k);
        if (ec != std::errc() || end != count.data() + count.size() || k < 1) {
            *error = "the in-sample length K must be a whole number of periods >= 1, got '" + std::string(count) + "'";
            return std::nullopt;
        }
        plan.in_sample_periods = k;
    }
    return plan;
}

std::string describe_walk_forward(const WalkForwardPlan& plan) {
    return std::string(plan.window == WalkForwardWindow::Anchored ? "anchored" : "rolling") + ":" +
           std::to_string(plan.in_sample_periods);
}

std::optional<WalkForwardScore> walk_forward_score(std::string_view metric) {
    if (metric == "sharpe") return WalkForwardScore::Sharpe;
    if (metric == "sortino") return WalkForwardScore::Sortino;
    if (metric == "total_return") return WalkForwardScore::TotalReturn;
    return std::nullopt;
}

WalkForwardReport walk_forward(std::span<const PeriodStatistics> periods, int n_periods, const WalkForwardPlan& plan,
                               WalkForwardScore score, int threads) {
    const int k = plan.in_sample_periods;
    if (n_periods < 2 || k < 1 || k >= n_periods) {
        throw std::invalid_argument("walk-forward " + describe_walk_forward(plan) + " needs more than " +
                                    std::to_string(k) + " periods (the run has " + std::to_string(n_periods) +
                                    "): at least one must be out-of-sample");
    }
    const std::size_t width = static_cast<std::size_t>(n_periods);
    if (periods.empty() || periods.size() % width != 0) {
        throw std::invalid_argument("the period statistics are not whole rows of " + std::to_string(n_periods));
    }
    const std::uint64_t combinations = periods.size() / width;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    WalkForwardReport report;
    report.plan = plan;
    double stitched_growth = 1.0;
    std::vector<PeriodStatistics> stitched;
    double in_sample_mean_return_sum = 0.0;
    std::uint64_t selected_steps = 0;
    const std::vector<Selection> selections = select_winners(periods, width, combinations, plan, score, threads);
    for (int oos = k; oos < n_periods; ++oos) {
        WalkForwardStep step;
        step.first_in_sample = first_in_sample(plan, oos);
        step.out_of_sample = oos;
        const Selection& selected = selections[static_cast<std::size_t>(oos - k)];
        const double best = selected.best;
        step.winner = selected.winner;
        step.in_sample_ties = selected.ties;
        if (combinations == 1) {
            step.selection_undefined = kOneCombination;
        } else if (std::isnan(best)) {
            step.selection_undefined = "no combination has a finite in-sample score";
        } else if (step.in_sample_ties == combinations) {
            step.selection_undefined = "every combination has the same in-sample score";
        }
        const auto row = periods.subspan(step.winner * width, width);
        step.in_sample_score = best;
        step.out_of_sample_score = score_of(row, oos, oos + 1, score);
        step.in_sample_return = return_of_periods(row, step.first_in_sample, oos - 1);
        step.out_of_sample_return = return_of_periods(row, oos, oos);
        step.in_sample_sharpe = sharpe_of_periods(row, periods_mask(step.first_in_sample, oos));
        step.out_of_sample_sharpe = sharpe_of_periods(row, periods_mask(oos, oos + 1));
        step.in_sample_bars = bars_of_periods(row, periods_mask(step.first_in_sample, oos));
        step.out_of_sample_bars = row[static_cast<std::size_t>(oos)].bars;
        step.out_of_sample_trades = row[static_cast<std::size_t>(oos)].trades;
        if (step.out_of_sample_bars == 0) {
            step.out_of_sample_undefined = "its out-of-sample period has no bars";
            step.out_of_sample_sharpe = nan;
            if (score != WalkForwardScore::TotalReturn) step.out_of_sample_score = nan;
        }
        stitched.push_back(row[static_cast<std::size_t>(oos)]);
        stitched_growth *= 1.0 + step.out_of_sample_return;
        report.stitched_trades += step.out_of_sample_trades;
        if (step.in_sample_bars > 0) {
            in_sample_mean_return_sum += step.in_sample_return / static_cast<double>(step.in_sample_bars);
        }
        if (step.selection_undefined == nullptr) ++selected_steps;
        report.steps.push_back(step);
    }
    report.stitched_return = stitched_growth - 1.0;
    report.stitched_bars = bars_of_periods(stitched, periods_mask(0, static_cast<int>(stitched.size())));
    report.stitched_sharpe = report.stitched_bars > 0
                                 ? sharpe_of_periods(stitched, periods_mask(0, static_cast<int>(stitched.size())))
                                 : nan;
    const double in_sample_mean = in_sample_mean_return_sum / static_cast<double>(report.steps.size());
    const double out_of_sample_mean =
        report.stitched_bars > 0 ? report.stitched_return / static_cast<double>(report.stitched_bars) : 0.0;
    if (selected_steps == 0) {
        // One reason for all: the first step's, when every step has it.
        const char* reason = report.steps.front().selection_undefined;
        for (const WalkForwardStep& step : report.steps) {
            if (step.selection_undefined != reason) reason = "no step selected a combination";
        }
        report.efficiency_undefined = reason;
    } else if (!(in_sample_mean > 0.0)) {
        report.efficiency_undefined = "the in-sample winners did not gain";
    }
    report.efficiency = report.efficiency_undefined == nullptr ? out_of_sample_mean / in_sample_mean : nan;
    return report;
}

}  // namespace btforge
