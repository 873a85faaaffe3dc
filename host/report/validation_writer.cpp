#include "host/report/validation_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "host/spec/assignments.h"
#include "host/io/number_format.h"
#include "host/validation/sweep_verdict.h"

namespace btforge {

namespace {

// The parameters the grid varies, "name=value" joined by spaces.
std::string varying_parameters(const StrategySpec& spec, const CombinationSpace& space, std::uint64_t id) {
    std::vector<double> values(spec.parameters.size());
    space.decode(id, values);
    std::string text;
    for (const CombinationSpace::Digit& digit : space.digits()) {
        if (digit.radix < 2) continue;
        const ParameterSpec& p = spec.parameters[digit.parameter];
        text += (text.empty() ? "" : " ") + p.name + "=" + format_parameter_value(p, values[digit.parameter]);
    }
    return text.empty() ? "(no parameter varies)" : text;
}

std::string cell(double x, int digits = 4) {
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", digits, x);
    return text;
}

// The validation JSON lists at most this many of StepM's superior
// combinations (in run order); it always says how many there are.
constexpr std::size_t kMaxListedSuperior = 1000;
// The validation JSON lists at most this many members of each cluster of
// the effective trials (the first in run order); it always says how many.
constexpr std::size_t kMaxListedMembers = 1000;
// The validation text shows the largest clusters of the effective trials;
// the JSON lists them all (at most the sample's size, and the flat one).
constexpr std::size_t kMaxPrintedClusters = 12;

// A JSON number, or null for NaN and infinities.
nlohmann::json number(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

// Note [Undefined statistics]: "<name>_undefined" beside a null, with the reason.
template <class Json>
void say_undefined(Json& object, const std::string& name, const char* reason) {
    if (reason != nullptr) object[name + "_undefined"] = reason;
}

// A number for the text, or "n/a" when it is not one (an undefined statistic).
std::string shown(double x, int digits) { return std::isfinite(x) ? cell(x, digits) : std::string("n/a"); }

// "undefined (reason)" or the number.
std::string shown(double x, int digits, const char* reason) {
    return reason != nullptr ? "undefined (" + std::string(reason) + ")" : shown(x, digits);
}

double quantile(std::vector<double> sorted, double q) {
    if (sorted.empty()) return 0.0;
    std::sort(sorted.begin(), sorted.end());
    const double at = q * static_cast<double>(sorted.size() - 1);
    const std::size_t below = static_cast<std::size_t>(std::floor(at));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

std::string span_text(const PeriodSpans& spans, int first, int last) {
    return spans.at(static_cast<std::size_t>(first)).first + " .. " + spans.at(static_cast<std::size_t>(last)).second;
}

}  // namespace

std::string format_validation(const SweepValidation& v, const StrategySpec& spec, const CombinationSpace& space,
                              const PeriodSpans& spans, double bars_per_year) {
    const double annual = std::sqrt(bars_per_year);
    std::ostringstream out;
    out << "\nvalidation: " << v.n_periods << " periods of the window, " << v.trials << " combinations (trials)\n";
    if (v.walk_forward) {
        const WalkForwardReport& w = *v.walk_forward;
        out << "\nwalk-forward " << describe_walk_forward(w.plan) << " (in-sample winner by the ranking metric, then "
            << "the next period out of sample):\n";
        char line[512];
        std::snprintf(line, sizeof line, "%4s  %-8s %-4s  %10s  %10s  %10s  %10s  %10s  %s\n", "step", "in", "out",
                      "id", "IS sharpe", "OOS sharpe", "IS return", "OOS return", "parameters");
        out << line;
        std::vector<std::pair<std::string, std::string>> unselected;  // reason, its steps
        for (std::size_t i = 0; i < w.steps.size(); ++i) {
            const WalkForwardStep& s = w.steps[i];
            const std::uint64_t id = space.combination_id(s.winner);
            const std::string in = std::to_string(s.first_in_sample) + ".." + std::to_string(s.out_of_sample - 1);
            std::snprintf(line, sizeof line, "%4zu  %-8s %-4d  %10llu  %10s  %10s  %10s  %10s  %s\n", i + 1, in.c_str(),
                          s.out_of_sample, static_cast<unsigned long long>(id),
                          shown(s.in_sample_sharpe * annual, 3).c_str(), shown(s.out_of_sample_sharpe * annual, 3).c_str(),
                          (cell(100.0 * s.in_sample_return, 2) + "%").c_str(),
                          (cell(100.0 * s.out_of_sample_return, 2) + "%").c_str(),
                          varying_parameters(spec, space, id).c_str());
            out << line;
            if (s.selection_undefined != nullptr) {
                const auto same = std::find_if(unselected.begin(), unselected.end(),
                                               [&](const auto& u) { return u.first == s.selection_undefined; });
                if (same == unselected.end()) {
                    unselected.emplace_back(s.selection_undefined, std::to_string(i + 1));
                } else {
                    same->second += ", " + std::to_string(i + 1);
                }
            }
            if (s.out_of_sample_undefined != nullptr) {
                out << "      step " << i + 1 << ": out-of-sample sharpe undefined (" << s.out_of_sample_undefined << ")\n";
            }
        }
        for (const auto& [reason, steps] : unselected) {
            out << "nothing selected at step " << steps << " (" << reason << "): the first combination stands in\n";
        }
        out << "stitched out-of-sample (" << span_text(spans, w.steps.front().out_of_sample, w.steps.back().out_of_sample)
            << "): return " << cell(100.0 * w.stitched_return, 2) << "%, sharpe "
            << shown(w.stitched_sharpe * annual, 3) << ", " << w.stitched_trades << " trades closed; walk-forward "
            << "efficiency " << (w.efficiency_undefined != nullptr ? "n/a (" + std::string(w.efficiency_undefined) + ")"
                                                                    : shown(w.efficiency, 2))
            << "\n";
    }
    if (v.pbo) {
        const OverfittingReport& p = *v.pbo;
        std::vector<double> logits;
        for (const OverfittingSplit& s : p.splits) {
            if (s.informative) logits.push_back(s.logit);
        }
        out << "\nprobability of backtest overfitting (CSCV, " << p.splits.size() << " splits of " << p.periods
            << " periods, every combination, " << cell(p.seconds, 2) << " s on "
            << (p.device.empty() ? std::to_string(p.threads) + " threads" : p.device) << ", the scans "
            << cell(p.scan_seconds, 2) << " s): PBO " << shown(p.pbo, 3, p.undefined) << "\n";
        if (p.undefined == nullptr) {
            if (p.informative_splits != p.splits.size()) {
                out << "  over the " << p.informative_splits << " informative splits: the other "
                    << p.splits.size() - p.informative_splits
                    << " have every combination tied in-sample or out of sample, which ranks nothing\n";
            }
            out << "  logit of the winner's out-of-sample rank: 5% " << cell(quantile(logits, 0.05), 2) << ", median "
                << cell(quantile(logits, 0.5), 2) << ", 95% " << cell(quantile(logits, 0.95), 2)
                << " (below 0: under the out-of-sample median)\n"
                << "  performance degradation: ";
            if (p.degradation_undefined != nullptr) {
                out << "undefined (" << p.degradation_undefined << ")";
            } else {
                out << "out-of-sample sharpe = " << cell(p.degradation_slope, 3) << " x in-sample "
                    << (p.degradation_intercept < 0 ? "- " : "+ ") << cell(std::fabs(p.degradation_intercept * annual), 3)
                    << " (annualized)";
            }
            out << "; probability of an out-of-sample loss " << cell(p.probability_of_loss, 3) << "\n";
        }
    }
    if (v.cpcv) {
        const PurgedCvReport& c = *v.cpcv;
        out << "\ncombinatorial purged cross-validation (" << c.splits.size() << " splits testing "
            << c.plan.test_periods << " of " << c.periods << " periods, an embargo of " << c.plan.embargo
            << " on each side; " << c.paths.size() << " out-of-sample paths, " << cell(c.seconds, 2) << " s on "
            << c.threads << " threads):\n"
            << "  sharpe of the selected combination over the paths: mean " << shown(c.mean_sharpe * annual, 3)
            << ", deviation " << shown(c.sharpe_deviation * annual, 3) << ", from " << shown(c.min_sharpe * annual, 3)
            << " to " << shown(c.max_sharpe * annual, 3) << "; " << cell(100.0 * c.share_not_positive, 1)
            << "% of the paths at or below 0 (annualized)\n";
        if (c.selection_undefined != nullptr) out << "  nothing was selected (" << c.selection_undefined << ")\n";
    }
    if (v.spa) {
        const SpaReport& s = *v.spa;
        const bool hold = std::string(v.spa_benchmark) != "cash";
        out << "\nreality check, SPA and StepM against " << (hold ? "buying and holding every symbol" : "holding cash")
            << " (" << s.combinations << " return streams of "
            << s.observations << (v.daily_returns ? " UTC days" : " parts") << " of the window, " << s.resamples
            << " stationary-bootstrap resamples of mean "
            << "block " << cell(s.mean_block, 2) << ", seed " << v.seed
            << (s.device.empty() ? std::string() : ", the passes on " + s.device) << "):\n";
        if (s.undefined != nullptr) {
            out << "  undefined (" << s.undefined << ")\n";
        } else {
            out << (hold ? "  best mean return over buy and hold per part " : "  best mean return per part ")
                << shown(s.best_mean, 6) << " (combination "
                << space.combination_id(s.best) << "); reality check p-value " << cell(s.pvalue_upper, 3)
                << ", SPA p-value " << cell(s.pvalue_consistent, 3) << " (lower " << cell(s.pvalue_lower, 3) << ")\n"
                << "  StepM at a family-wise error rate of " << cell(s.size, 2) << ": " << s.superior.size()
                << (s.superior.size() == 1 ? " combination beats" : " combinations beat")
                << (hold ? " buy and hold (" : " cash (")
                << s.steps << (s.steps == 1 ? " pass" : " passes") << ")\n";
        }
        if (s.left_out > 0) out << "  " << s.left_out << " combinations left out: their returns are not finite\n";
    }
    if (v.clustered) {
        const ClusteredTrials& c = *v.clustered;
        const TrialClusters& k = c.clusters;
        out << "\neffective number of trials (ONC over " << k.combinations << " return streams, " << k.sampled
            << " distinct ones sampled, seed " << v.seed << "; " << cell(k.seconds, 2) << " s on " << k.threads
            << " threads): " << k.clusters.size()
            << (k.clusters.size() == 1 ? " cluster" : " clusters") << ", silhouette quality "
            << (k.quality == HUGE_VAL ? std::string("+inf (every silhouette equal)") : shown(k.quality, 3))
            << "\n";
        if (k.left_out > 0) out << "  " << k.left_out << " combinations left out: their returns are not finite\n";
        // The largest clusters, then the smaller index.
        std::vector<std::size_t> order(k.clusters.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return k.clusters[a].members > k.clusters[b].members;
        });
        char line[256];
        std::snprintf(line, sizeof line, "%9s  %10s  %14s  %10s\n", "cluster", "members", "representative", "sharpe");
        out << line;
        for (std::size_t i = 0; i < std::min<std::size_t>(order.size(), kMaxPrintedClusters); ++i) {
            const TrialCluster& t = k.clusters[order[i]];
            std::snprintf(line, sizeof line, "%9zu  %10llu  %14llu  %10s%s\n", order[i],
                          static_cast<unsigned long long>(t.members),
                          static_cast<unsigned long long>(space.combination_id(t.representative)),
                          shown(c.representative_sharpe[order[i]] * annual, 3).c_str(),
                          t.flat ? "  (returns without variance)" : "");
            out << line;
        }
        if (order.size() > kMaxPrintedClusters) {
            out << "  ... " << order.size() - kMaxPrintedClusters << " smaller clusters in the JSON\n";
        }
        out << "  variance of the representatives' sharpe "
            << (c.trials.sharpe_variance_undefined != nullptr
                    ? "undefined (" + std::string(c.trials.sharpe_variance_undefined) + ")"
                    : format_significant(c.trials.sharpe_variance * bars_per_year) + " annualized")
            << "; expected maximum by luck of " << k.clusters.size() << " trials "
            << shown(c.trials.expected_max_sharpe * annual, 3, c.trials.expected_max_sharpe_undefined) << "\n";
    }
    if (!v.deflated.empty()) {
        out << "\ndeflated sharpe of the top rows (" << v.trials << (v.trials == 1 ? " trial" : " trials")
            << "; variance of their sharpe "
            << (v.sharpe_variance_undefined != nullptr
                    ? "undefined (" + std::string(v.sharpe_variance_undefined) + ")"
                    : format_significant(v.sharpe_variance * bars_per_year) + " annualized")
            << "; expected maximum by luck " << shown(v.expected_max_sharpe * annual, 3, v.expected_max_sharpe_undefined)
            << (v.clustered ? "; DSR(clusters) counts the clusters as the trials" : "") << "):\n";
        char line[256];
        std::snprintf(line, sizeof line, "%10s  %10s  %9s  %9s  %7s  %7s", "id", "sharpe", "skewness", "kurtosis",
                      "PSR(0)", "DSR");
        out << line << (v.clustered ? "  cluster  DSR(clusters)\n" : "\n");
        std::string notes;
        for (const DeflatedRow& r : v.deflated) {
            const bool moments = r.moments.undefined == nullptr;
            std::snprintf(line, sizeof line, "%10llu  %10s  %9s  %9s  %7s  %7s",
                          static_cast<unsigned long long>(r.combination_id), cell(r.moments.sharpe * annual, 3).c_str(),
                          moments ? cell(r.moments.skewness, 3).c_str() : "n/a",
                          moments ? cell(r.moments.kurtosis, 3).c_str() : "n/a", shown(r.psr, 3).c_str(),
                          shown(r.dsr, 3).c_str());
            out << line;
            if (v.clustered) {
                std::snprintf(line, sizeof line, "  %7s  %13s",
                              r.cluster == kNoCluster ? "-" : std::to_string(r.cluster).c_str(),
                              shown(r.clustered_dsr, 3).c_str());
                out << line;
            }
            out << "\n";
            // The expected maximum's reason is said above, once.
            if (r.psr_undefined != nullptr) {
                notes += "  id " + std::to_string(r.combination_id) + ": PSR and DSR undefined (" + r.psr_undefined + ")\n";
            }
        }
        out << notes;
    }
    const std::string verdict = validation_verdict(v);
    if (!verdict.empty()) out << "\nverdict: " << verdict << "\n";
    return out.str();
}

void write_validation_json(std::ostream& out, const SweepValidation& v, const StrategySpec& spec,
                           const CombinationSpace& space, const PeriodSpans& spans, double bars_per_year) {
    const double annual = std::sqrt(bars_per_year);
    nlohmann::ordered_json doc;
    doc["periods"] = v.n_periods;
    nlohmann::json period_list = nlohmann::json::array();
    for (const auto& [first, last] : spans) period_list.push_back({{"first_bar_time", first}, {"last_bar_time", last}});
    doc["period_spans"] = period_list;
    doc["trials"] = v.trials;
    doc["sharpe_variance_annualized"] = number(v.sharpe_variance * bars_per_year);
    say_undefined(doc, "sharpe_variance", v.sharpe_variance_undefined);
    doc["expected_max_sharpe_annualized"] = number(v.expected_max_sharpe * annual);
    say_undefined(doc, "expected_max_sharpe", v.expected_max_sharpe_undefined);
    nlohmann::ordered_json deflated = nlohmann::ordered_json::array();
    for (const DeflatedRow& r : v.deflated) {
        const bool moments = r.moments.undefined == nullptr;
        nlohmann::ordered_json row = {{"combination_id", r.combination_id},
                                      {"sharpe_annualized", number(r.moments.sharpe * annual)},
                                      {"skewness", moments ? number(r.moments.skewness) : nlohmann::json(nullptr)},
                                      {"kurtosis", moments ? number(r.moments.kurtosis) : nlohmann::json(nullptr)},
                                      {"bars", r.moments.observations},
                                      {"psr", number(r.psr)}};
        say_undefined(row, "psr", r.psr_undefined);
        row["dsr"] = number(r.dsr);
        say_undefined(row, "dsr", r.dsr_undefined);
        if (v.clustered) {
            row["cluster"] = r.cluster == kNoCluster ? nlohmann::json(nullptr) : nlohmann::json(r.cluster);
            row["clustered_dsr"] = number(r.clustered_dsr);
            say_undefined(row, "clustered_dsr", r.clustered_dsr_undefined);
        }
        deflated.push_back(row);
    }
    if (v.clustered) {
        const ClusteredTrials& c = *v.clustered;
        std::vector<nlohmann::json> listed(c.clusters.clusters.size(), nlohmann::json::array());
        for (std::uint64_t n = 0; n < c.clusters.cluster_of.size(); ++n) {
            const std::uint32_t cluster = c.clusters.cluster_of[n];
            if (cluster != kNoCluster && listed[cluster].size() < kMaxListedMembers) {
                listed[cluster].push_back(space.combination_id(n));
            }
        }
        nlohmann::ordered_json clusters = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < c.clusters.clusters.size(); ++i) {
            const TrialCluster& t = c.clusters.clusters[i];
            nlohmann::ordered_json cluster = {{"members", t.members},
                                              {"representative", space.combination_id(t.representative)},
                                              {"sharpe_annualized", number(c.representative_sharpe[i] * annual)}};
            if (t.flat) cluster["returns_without_variance"] = true;
            cluster["combination_ids"] = std::move(listed[i]);
            clusters.push_back(cluster);
        }
        nlohmann::ordered_json effective = {{"method", "ONC"},
                                            {"combinations", c.clusters.combinations},
                                            {"sampled", c.clusters.sampled},
                                            {"seed", v.seed},
                                            {"left_out", c.clusters.left_out},
                                            {"trials", c.clusters.clusters.size()},
                                            {"silhouette_quality", number(c.clusters.quality)}};
        effective["sharpe_variance_annualized"] = number(c.trials.sharpe_variance * bars_per_year);
        say_undefined(effective, "sharpe_variance", c.trials.sharpe_variance_undefined);
        effective["expected_max_sharpe_annualized"] = number(c.trials.expected_max_sharpe * annual);
        say_undefined(effective, "expected_max_sharpe", c.trials.expected_max_sharpe_undefined);
        effective["clusters"] = clusters;
        doc["effective_trials"] = effective;
    }
    doc["deflated_sharpe"] = deflated;
    if (v.pbo) {
        const OverfittingReport& p = *v.pbo;
        // Note [Uninformative splits]: their logits are null.
        nlohmann::json logits = nlohmann::json::array();
        for (const OverfittingSplit& s : p.splits) logits.push_back(s.informative ? number(s.logit) : nlohmann::json(nullptr));
        nlohmann::ordered_json pbo = {{"pbo", number(p.pbo)}};
        say_undefined(pbo, "pbo", p.undefined);
        pbo["splits"] = p.splits.size();
        pbo["informative_splits"] = p.informative_splits;
        pbo["degradation_slope"] = number(p.degradation_slope);
        pbo["degradation_intercept_annualized"] = number(p.degradation_intercept * annual);
        // One reason for both; none beside the PBO's own.
        if (p.undefined == nullptr) say_undefined(pbo, "degradation", p.degradation_undefined);
        pbo["probability_of_loss"] = number(p.probability_of_loss);
        pbo["logits"] = logits;
        doc["pbo"] = pbo;
    }
    if (v.walk_forward) {
        const WalkForwardReport& w = *v.walk_forward;
        nlohmann::ordered_json steps = nlohmann::ordered_json::array();
        for (const WalkForwardStep& s : w.steps) {
            const std::uint64_t id = space.combination_id(s.winner);
            std::vector<double> values(spec.parameters.size());
            space.decode(id, values);
            nlohmann::ordered_json step = {{"in_sample_periods", {s.first_in_sample, s.out_of_sample - 1}},
                                           {"out_of_sample_period", s.out_of_sample},
                                           {"combination_id", id}};
            say_undefined(step, "selection", s.selection_undefined);
            step["parameters"] = combination_assignments(spec, values);
            step["in_sample_score"] = number(s.in_sample_score);
            step["out_of_sample_score"] = number(s.out_of_sample_score);
            step["in_sample_return"] = number(s.in_sample_return);
            step["out_of_sample_return"] = number(s.out_of_sample_return);
            step["in_sample_sharpe_annualized"] = number(s.in_sample_sharpe * annual);
            step["out_of_sample_sharpe_annualized"] = number(s.out_of_sample_sharpe * annual);
            say_undefined(step, "out_of_sample_sharpe", s.out_of_sample_undefined);
            step["out_of_sample_trades"] = s.out_of_sample_trades;
            steps.push_back(step);
        }
        nlohmann::ordered_json walk = {{"plan", describe_walk_forward(w.plan)},
                                       {"steps", steps},
                                       {"stitched_return", number(w.stitched_return)},
                                       {"stitched_sharpe_annualized", number(w.stitched_sharpe * annual)}};
        if (w.stitched_bars == 0) say_undefined(walk, "stitched_sharpe", "no bar");
        walk["stitched_bars"] = w.stitched_bars;
        walk["stitched_trades"] = w.stitched_trades;
        walk["efficiency"] = number(w.efficiency);
        say_undefined(walk, "efficiency", w.efficiency_undefined);
        doc["walk_forward"] = walk;
    }
    if (v.cpcv) {
        const PurgedCvReport& c = *v.cpcv;
        nlohmann::ordered_json splits = nlohmann::ordered_json::array();
        const auto periods_of = [&](std::uint32_t mask) {
            nlohmann::json list = nlohmann::json::array();
            for (int p = 0; p < c.periods; ++p) {
                if ((mask >> p & 1u) != 0) list.push_back(p);
            }
            return list;
        };
        for (const PurgedCvSplit& s : c.splits) {
            const std::uint64_t id = space.combination_id(s.winner);
            splits.push_back({{"test_periods", periods_of(s.test_mask)},
                              {"in_sample_periods", periods_of(s.in_sample_mask)},
                              {"combination_id", id},
                              {"in_sample_sharpe_annualized", number(s.in_sample_sharpe * annual)}});
        }
        nlohmann::ordered_json paths = nlohmann::ordered_json::array();
        for (const PurgedCvPath& p : c.paths) {
            paths.push_back({{"splits", p.splits}, {"sharpe_annualized", number(p.sharpe * annual)}, {"bars", p.bars}});
        }
        nlohmann::ordered_json cpcv = {{"plan", describe_purged_cv(c.plan)},
                                       {"test_periods", c.plan.test_periods},
                                       {"embargo", c.plan.embargo}};
        say_undefined(cpcv, "selection", c.selection_undefined);
        cpcv["mean_sharpe_annualized"] = number(c.mean_sharpe * annual);
        cpcv["sharpe_deviation_annualized"] = number(c.sharpe_deviation * annual);
        cpcv["min_sharpe_annualized"] = number(c.min_sharpe * annual);
        cpcv["max_sharpe_annualized"] = number(c.max_sharpe * annual);
        cpcv["share_not_positive"] = number(c.share_not_positive);
        cpcv["splits"] = splits;
        cpcv["paths"] = paths;
        doc["cpcv"] = cpcv;
    }
    if (v.spa) {
        const SpaReport& s = *v.spa;
        nlohmann::ordered_json spa = {{"benchmark", v.spa_benchmark},
                                      {"observations", s.observations},
                                      {"resamples", s.resamples},
                                      {"mean_block", s.mean_block},
                                      {"seed", v.seed},
                                      {"size", s.size},
                                      {"combinations", s.combinations},
                                      {"left_out", s.left_out}};
        // Note [Equity marks at UTC days]: said only when daily, so the files of runs before it stand.
        if (v.daily_returns) spa["observations_are"] = "utc_days";
        say_undefined(spa, "spa", s.undefined);
        if (s.combinations > 0) {
            spa["best"] = {{"combination_id", space.combination_id(s.best)}, {"mean_return", number(s.best_mean)}};
        }
        spa["reality_check_pvalue"] = number(s.pvalue_upper);
        spa["spa_pvalue"] = number(s.pvalue_consistent);
        spa["spa_pvalue_lower"] = number(s.pvalue_lower);
        spa["stepm_critical_value"] = number(s.critical_value);
        spa["stepm_steps"] = s.steps;
        nlohmann::json superior = nlohmann::json::array();
        for (std::size_t i = 0; i < std::min<std::size_t>(s.superior.size(), kMaxListedSuperior); ++i) {
            superior.push_back(space.combination_id(s.superior[i]));
        }
        spa["stepm_superior"] = {{"count", s.superior.size()}, {"combination_ids", superior}};
        doc["spa"] = spa;
    }
    // Note [The verdict]
    const Verdict verdict = decide_verdict(v);
    nlohmann::ordered_json checks = nlohmann::ordered_json::array();
    for (const VerdictCheck& c : verdict.checks) {
        nlohmann::ordered_json check = {{"test", c.test}, {"ran", c.ran}};
        if (c.ran) {
            check["passed"] = c.passed;
            check["value"] = number(c.value);
        }
        check["reading"] = c.reading;
        checks.push_back(check);
    }
    doc["decision"] = decision_name(verdict.decision);
    doc["checks"] = checks;
    doc["verdict"] = validation_verdict(v);
    out << doc.dump(2) << '\n';
}

void write_walk_forward_csv(std::ostream& out, const WalkForwardReport& w, const StrategySpec& spec,
                            const CombinationSpace& space, const PeriodSpans& spans, double bars_per_year) {
    const double annual = std::sqrt(bars_per_year);
    out << "step,in_sample_first_period,in_sample_last_period,out_of_sample_period,in_sample_from,in_sample_to,"
           "out_of_sample_from,out_of_sample_to,combination_id";
    for (const ParameterSpec& p : spec.parameters) out << ',' << p.name;
    out << ",in_sample_score,out_of_sample_score,in_sample_return,out_of_sample_return,in_sample_sharpe,"
           "out_of_sample_sharpe,out_of_sample_trades\n";
    for (std::size_t i = 0; i < w.steps.size(); ++i) {
        const WalkForwardStep& s = w.steps[i];
        const std::uint64_t id = space.combination_id(s.winner);
        std::vector<double> values(spec.parameters.size());
        space.decode(id, values);
        out << i + 1 << ',' << s.first_in_sample << ',' << s.out_of_sample - 1 << ',' << s.out_of_sample << ','
            << spans.at(static_cast<std::size_t>(s.first_in_sample)).first << ','
            << spans.at(static_cast<std::size_t>(s.out_of_sample - 1)).second << ','
            << spans.at(static_cast<std::size_t>(s.out_of_sample)).first << ','
            << spans.at(static_cast<std::size_t>(s.out_of_sample)).second << ',' << id;
        for (std::size_t p = 0; p < values.size(); ++p) out << ',' << format_parameter_value(spec.parameters[p], values[p]);
        out << ',' << format_double(s.in_sample_score) << ',' << format_double(s.out_of_sample_score) << ','
            << format_double(s.in_sample_return) << ',' << format_double(s.out_of_sample_return) << ','
            << format_double(s.in_sample_sharpe * annual) << ',' << format_double(s.out_of_sample_sharpe * annual)
            << ',' << s.out_of_sample_trades << '\n';
    }
}

}  // namespace btforge
