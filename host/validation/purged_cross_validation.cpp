#include "host/validation/purged_cross_validation.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "host/validation/cscv_split.h"
#include "host/validation/sharpe_statistics.h"

namespace btforge {

namespace {

std::optional<int> whole_number(std::string_view digits) {
    int value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return value;
}

std::uint32_t bit(int p) { return std::uint32_t{1} << p; }

}  // namespace

std::optional<PurgedCvPlan> parse_purged_cv(std::string_view text, std::string* error) {
    PurgedCvPlan plan;
    const std::size_t colon = text.find(':');
    const std::optional<int> k = whole_number(text.substr(0, colon));
    if (!k || *k < 1) {
        *error = "expected K or K:E (K test periods >= 1, E embargo periods >= 0), got '" + std::string(text) + "'";
        return std::nullopt;
    }
    plan.test_periods = *k;
    if (colon != std::string_view::npos) {
        const std::optional<int> e = whole_number(text.substr(colon + 1));
        if (!e || *e < 0) {
            *error = "the embargo E must be a whole number of periods >= 0, got '" +
                     std::string(text.substr(colon + 1)) + "'";
            return std::nullopt;
        }
        plan.embargo = *e;
    }
    return plan;
}

std::string describe_purged_cv(const PurgedCvPlan& plan) {
    return std::to_string(plan.test_periods) + ":" + std::to_string(plan.embargo);
}

std::vector<std::uint32_t> purged_cv_test_masks(int test_periods, int periods) {
    std::vector<std::uint32_t> masks;
    if (test_periods < 1 || test_periods > periods || periods > kMaxPeriods) return masks;
    for (std::uint32_t m = 0; m < bit(periods); ++m) {
        if (std::popcount(m) == test_periods) masks.push_back(m);
    }
    return masks;
}

std::uint32_t purged_cv_in_sample_mask(std::uint32_t test_mask, int periods, int embargo) {
    std::uint32_t excluded = test_mask;
    for (int p = 0; p < periods; ++p) {
        if ((test_mask & bit(p)) == 0) continue;
        for (int d = 1; d <= embargo; ++d) {
            if (p - d >= 0) excluded |= bit(p - d);
            if (p + d < periods) excluded |= bit(p + d);
        }
    }
    return (bit(periods) - 1) & ~excluded;
}

std::string check_purged_cv_plan(const PurgedCvPlan& plan, int periods) {
    if (plan.test_periods < 1 || plan.test_periods >= periods) {
        return "K test periods must leave one in sample: 1 <= K < " + std::to_string(periods) + " (--periods), got " +
               std::to_string(plan.test_periods);
    }
    for (std::uint32_t test : purged_cv_test_masks(plan.test_periods, periods)) {
        if (purged_cv_in_sample_mask(test, periods, plan.embargo) == 0) {
            std::string tested;
            for (int p = 0; p < periods; ++p) {
                if ((test & bit(p)) != 0) tested += (tested.empty() ? "" : ",") + std::to_string(p);
            }
            return "the split testing periods " + tested + " of " + std::to_string(periods) +
                   " has no in-sample period left after an embargo of " + std::to_string(plan.embargo) +
                   " on each side: lower K or E, or raise --periods";
        }
    }
    return {};
}

PurgedCvReport combinatorial_purged_cv(std::span<const PeriodStatistics> returns, int periods,
                                       const PurgedCvPlan& plan, const OverfittingOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    if (periods < 1 || periods > kMaxPeriods) {
        throw std::invalid_argument("period statistics come in 1.." + std::to_string(kMaxPeriods) + " periods, got " +
                                    std::to_string(periods));
    }
    const std::string refused = check_purged_cv_plan(plan, periods);
    if (!refused.empty()) throw std::invalid_argument("--cpcv " + describe_purged_cv(plan) + ": " + refused);
    const CscvInput input = pack_period_sums(returns, periods);
    PurgedCvReport report;
    report.plan = plan;
    report.periods = periods;
    report.combinations = input.combinations;

    const std::vector<std::uint32_t> tests = purged_cv_test_masks(plan.test_periods, periods);
    std::vector<std::uint32_t> in_sample(tests.size());
    for (std::size_t s = 0; s < tests.size(); ++s) in_sample[s] = purged_cv_in_sample_mask(tests[s], periods, plan.embargo);
    const std::vector<CscvBest> winners = in_sample_winners(input, in_sample, options, &report.threads);
    if (options.cancel != nullptr && options.cancel->load()) {
        report.cancelled = true;
        return report;
    }
    for (std::size_t s = 0; s < tests.size(); ++s) {
        report.splits.push_back({tests[s], in_sample[s], winners[s].index, winners[s].sharpe});
    }

    // Path j: per period, the j-th split (in split order) that tests it.
    const std::size_t paths = tests.size() * static_cast<std::size_t>(plan.test_periods) /
                              static_cast<std::size_t>(periods);
    std::vector<std::vector<int>> testing(static_cast<std::size_t>(periods));
    for (std::size_t s = 0; s < tests.size(); ++s) {
        for (int p = 0; p < periods; ++p) {
            if ((tests[s] & bit(p)) != 0) testing[static_cast<std::size_t>(p)].push_back(static_cast<int>(s));
        }
    }
    double sum = 0.0;
    int not_positive = 0;
    for (std::size_t j = 0; j < paths; ++j) {
        PurgedCvPath path;
        double return_sum = 0.0;
        double return_sum_squares = 0.0;
        for (int p = 0; p < periods; ++p) {
            const int s = testing[static_cast<std::size_t>(p)].at(j);
            path.splits.push_back(s);
            const CscvSums& cell = input.row(winners[static_cast<std::size_t>(s)].index)[p];
            return_sum += cell.sum;
            return_sum_squares += cell.sum_squares;
            path.bars += input.bars[static_cast<std::size_t>(p)];
        }
        path.sharpe = sharpe_of_sums(return_sum, return_sum_squares, path.bars);
        sum += path.sharpe;
        if (!(path.sharpe > 0.0)) not_positive += 1;
        report.paths.push_back(std::move(path));
    }
    const double n = static_cast<double>(paths);
    report.mean_sharpe = sum / n;
    double squares = 0.0;
    report.min_sharpe = report.max_sharpe = report.paths.front().sharpe;
    for (const PurgedCvPath& path : report.paths) {
        const double d = path.sharpe - report.mean_sharpe;
        squares += d * d;
        report.min_sharpe = std::min(report.min_sharpe, path.sharpe);
        report.max_sharpe = std::max(report.max_sharpe, path.sharpe);
    }
    report.sharpe_deviation = std::sqrt(squares / n);
    report.share_not_positive = static_cast<double>(not_positive) / n;
    if (input.combinations == 1) report.selection_undefined = kOneCombination;
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return report;
}

}  // namespace btforge
