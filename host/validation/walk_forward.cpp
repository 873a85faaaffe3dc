#include "host/validation/walk_forward.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>

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
                               WalkForwardScore score) {
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
    for (int oos = k; oos < n_periods; ++oos) {
        WalkForwardStep step;
        step.first_in_sample = plan.window == WalkForwardWindow::Anchored ? 0 : oos - k;
        step.out_of_sample = oos;
        // The best score, NaN below every number; ties to the smaller ordinal.
        double best = nan;
        for (std::uint64_t n = 0; n < combinations; ++n) {
            const auto row = periods.subspan(n * width, width);
            const double s = score_of(row, step.first_in_sample, oos, score);
            if (n == 0 || (!std::isnan(s) && (std::isnan(best) || s > best))) {
                best = s;
                step.winner = n;
                step.in_sample_ties = 1;
            } else if (s == best || (std::isnan(s) && std::isnan(best))) {
                ++step.in_sample_ties;
            }
        }
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
