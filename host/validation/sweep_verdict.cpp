#include "host/validation/sweep_verdict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

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

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A statistic against its threshold, with the digits that tell them apart:
// a PBO of 0.1996 reads "0.1996 < 0.20", not "0.20 < 0.20".
std::string against(double value, int digits, bool passed, const char* holds, const char* fails, double threshold) {
    int shown = digits;
    while (shown < 8 && fixed(value, shown) == fixed(threshold, shown)) ++shown;
    return fixed(value, shown) + (passed ? holds : fails) + fixed(threshold, 2);
}

VerdictCheck not_run(const char* test, const char* what, const char* option) {
    VerdictCheck c;
    c.test = test;
    c.value = kNaN;
    c.reading = std::string(what) + " (" + option + ")";
    return c;
}

VerdictCheck ran(const char* test, double value, bool passed, std::string reading) {
    VerdictCheck c;
    c.test = test;
    c.ran = true;
    c.value = value;
    c.passed = passed;
    c.reading = std::move(reading);
    return c;
}

VerdictCheck pbo_check(const SweepValidation& v) {
    if (!v.pbo || v.pbo->cancelled) return not_run("pbo", "the PBO", "--pbo");
    const OverfittingReport& p = *v.pbo;
    if (p.undefined != nullptr) return ran("pbo", kNaN, false, "PBO undefined (" + std::string(p.undefined) + ")");
    const bool passed = p.pbo < kVerdictMaxPbo;
    return ran("pbo", p.pbo, passed, "PBO " + against(p.pbo, 2, passed, " < ", " not < ", kVerdictMaxPbo));
}

VerdictCheck dsr_check(const SweepValidation& v) {
    if (!v.clustered || v.deflated.empty()) return not_run("clustered_dsr", "the DSR over the effective trials", "--returns M or --spa");
    const DeflatedRow& best = v.deflated.front();
    const std::string over = "over " + std::to_string(v.clustered->clusters.clusters.size()) + " effective trials";
    if (best.clustered_dsr_undefined != nullptr) {
        return ran("clustered_dsr", kNaN, false,
                   "the best row's DSR " + over + " undefined (" + std::string(best.clustered_dsr_undefined) + ")");
    }
    const bool passed = best.clustered_dsr >= kVerdictMinDsr;
    return ran("clustered_dsr", best.clustered_dsr, passed,
               "the best row's DSR " + over + " " +
                   against(best.clustered_dsr, 3, passed, " >= ", " not >= ", kVerdictMinDsr));
}

VerdictCheck spa_check(const SweepValidation& v) {
    if (!v.spa || v.spa->cancelled) return not_run("spa", "the SPA", "--spa");
    const SpaReport& s = *v.spa;
    if (s.undefined != nullptr) return ran("spa", kNaN, false, "SPA undefined (" + std::string(s.undefined) + ")");
    const bool passed = s.pvalue_consistent < s.size;
    return ran("spa", s.pvalue_consistent, passed,
               "SPA p-value " + against(s.pvalue_consistent, 3, passed, " < ", " not < ", s.size));
}

VerdictCheck cpcv_check(const SweepValidation& v) {
    if (!v.cpcv || v.cpcv->cancelled) return not_run("cpcv", "the CPCV", "--cpcv");
    const PurgedCvReport& c = *v.cpcv;
    if (c.paths.empty() || !std::isfinite(c.mean_sharpe)) {
        return ran("cpcv", kNaN, false, "the CPCV paths' Sharpe ratio is undefined");
    }
    const bool passed = c.mean_sharpe > 0.0 && c.share_not_positive <= kVerdictMaxShareNotPositive;
    return ran("cpcv", c.share_not_positive, passed,
               percent(c.share_not_positive) + " of the CPCV paths at or below 0" +
                   (c.share_not_positive <= kVerdictMaxShareNotPositive ? " <= " : " not <= ") +
                   percent(kVerdictMaxShareNotPositive) + (c.mean_sharpe > 0.0 ? ", their mean above 0"
                                                                               : ", their mean not above 0"));
}

std::string joined(const std::vector<std::string>& parts) {
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) text += i + 1 == parts.size() ? " and " : ", ";
        text += parts[i];
    }
    return text;
}

// The decision and its reasons, one sentence each kind.
std::string headline(const Verdict& verdict) {
    std::vector<std::string> failed, passed, missing;
    for (const VerdictCheck& c : verdict.checks) {
        (c.ran ? (c.passed ? passed : failed) : missing).push_back(c.reading);
    }
    std::string text;
    switch (verdict.decision) {
        case VerdictDecision::Evidence:
            text = "Evidence of an edge: every test holds (" + joined(passed) + "). ";
            break;
        case VerdictDecision::NoEvidence:
            text = "No evidence of an edge: " + joined(failed) + ".";
            if (!passed.empty()) text += " Holding: " + joined(passed) + ".";
            if (!missing.empty()) text += " Not run: " + joined(missing) + ".";
            text += " ";
            break;
        case VerdictDecision::Undecided:
            text = "Undecided: ";
            text += passed.empty() ? std::string("no test of the verdict ran") : "holding: " + joined(passed);
            text += "; not run: " + joined(missing) + ". ";
            break;
    }
    return text;
}

}  // namespace

Verdict decide_verdict(const SweepValidation& v) {
    Verdict verdict;
    verdict.checks = {pbo_check(v), dsr_check(v), spa_check(v), cpcv_check(v)};
    const bool any_failed = std::any_of(verdict.checks.begin(), verdict.checks.end(),
                                        [](const VerdictCheck& c) { return c.ran && !c.passed; });
    const bool all_ran = std::all_of(verdict.checks.begin(), verdict.checks.end(),
                                     [](const VerdictCheck& c) { return c.ran; });
    verdict.decision = any_failed ? VerdictDecision::NoEvidence
                       : all_ran  ? VerdictDecision::Evidence
                                  : VerdictDecision::Undecided;
    return verdict;
}

const char* decision_name(VerdictDecision decision) {
    switch (decision) {
        case VerdictDecision::Evidence: return "evidence of an edge";
        case VerdictDecision::NoEvidence: return "no evidence of an edge";
        case VerdictDecision::Undecided: return "undecided";
    }
    return "undecided";
}

std::string validation_verdict(const SweepValidation& v) {
    std::string text = headline(decide_verdict(v));
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
            } else if (p.pbo >= kVerdictMaxPbo) {
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
        if (v.clustered) {
            const std::size_t k = v.clustered->clusters.clusters.size();
            const std::string over = "over the " + std::to_string(k) + (k == 1 ? " cluster" : " clusters") +
                                     " of the " + std::to_string(v.trials) +
                                     " combinations' return streams (the effective number of trials)";
            if (best.clustered_dsr_undefined != nullptr) {
                text += "The best row's deflated Sharpe ratio " + over + " is undefined (" +
                        std::string(best.clustered_dsr_undefined) + "). ";
            } else {
                text += "The best row's deflated Sharpe ratio " + over + " is " + fixed(best.clustered_dsr, 2) +
                        (best.clustered_dsr >= kVerdictMinDsr
                             ? ": its Sharpe ratio is significant at 95% against the best of that many independent "
                               "trials by luck. "
                             : ": not significant at 95%; the best of that many independent trials, their Sharpe "
                               "ratios as spread as the clusters', would reach it by luck. ");
            }
            text += "Counting every combination as a trial, it would be " +
                    (best.dsr_undefined != nullptr ? "undefined (" + std::string(best.dsr_undefined) + ")"
                                                   : fixed(best.dsr, 2)) +
                    "; the verdict reads the clustered one.";
        } else if (best.dsr_undefined != nullptr) {
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
        const bool hold = std::string(v.spa_benchmark) != "cash";
        text += std::string(hold ? " Against buying and holding every symbol" : " Against holding cash") +
                ", over every combination's returns in " + std::to_string(s.observations) +
                (v.daily_returns ? " UTC days" : " parts") + " of the window: ";
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
                    (s.superior.size() == 1 ? " combination" : " combinations") + " that beat " +
                    (hold ? "buy and hold" : "cash") + " at a family-wise "
                    "error rate of " + percent(s.size) + ".";
        }
    }
    return text;
}

}  // namespace btforge
