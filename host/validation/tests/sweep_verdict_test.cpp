// Note [The verdict]: the rule as a table of cases, its thresholds at their
// edges, what is undefined or not run. Whole strategies: the Monte Carlo of
// the verdict in strategy_monte_carlo_test.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "host/validation/sweep_verdict.h"

namespace btforge {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Readings {
    double pbo = 0.05;
    double dsr = 0.99;
    double spa = 0.01;
    double mean_path_sharpe = 0.1;
    double share_not_positive = 0.0;
    bool pbo_ran = true, dsr_ran = true, spa_ran = true, cpcv_ran = true;
};

SweepValidation validation_of(const Readings& r) {
    SweepValidation v;
    v.trials = 100;
    if (r.pbo_ran) {
        v.pbo.emplace();
        v.pbo->pbo = r.pbo;
        if (std::isnan(r.pbo)) v.pbo->undefined = "one combination: nothing was selected";
    }
    DeflatedRow best;
    best.dsr = 0.1;
    best.clustered_dsr = r.dsr;
    if (std::isnan(r.dsr)) best.clustered_dsr_undefined = "zero variance of the trials' Sharpe ratios";
    v.deflated.push_back(best);
    if (r.dsr_ran) {
        v.clustered.emplace();
        v.clustered->clusters.clusters.resize(4);
    }
    if (r.spa_ran) {
        v.spa.emplace();
        v.spa->size = 0.05;
        v.spa->pvalue_consistent = r.spa;
    }
    if (r.cpcv_ran) {
        v.cpcv.emplace();
        v.cpcv->paths.resize(4);
        v.cpcv->mean_sharpe = r.mean_path_sharpe;
        v.cpcv->share_not_positive = r.share_not_positive;
    }
    return v;
}

VerdictDecision decision(const Readings& r) { return decide_verdict(validation_of(r)).decision; }

TEST_CASE("the rule, case by case") {
    using D = VerdictDecision;
    struct Case {
        const char* what;
        Readings readings;
        D expected;
    };
    const auto with = [](auto edit) {
        Readings r;
        edit(r);
        return r;
    };
    const Case cases[] = {
        {"every test holds", Readings{}, D::Evidence},
        {"PBO at 0.2 fails", with([](Readings& r) { r.pbo = 0.2; }), D::NoEvidence},
        {"PBO just below 0.2 holds", with([](Readings& r) { r.pbo = 0.1999; }), D::Evidence},
        {"DSR at 0.95 holds", with([](Readings& r) { r.dsr = 0.95; }), D::Evidence},
        {"DSR just below 0.95 fails", with([](Readings& r) { r.dsr = 0.9499; }), D::NoEvidence},
        {"SPA at the size fails", with([](Readings& r) { r.spa = 0.05; }), D::NoEvidence},
        {"a quarter of the paths at or below 0 holds", with([](Readings& r) { r.share_not_positive = 0.25; }),
         D::Evidence},
        {"more than a quarter fails", with([](Readings& r) { r.share_not_positive = 0.2501; }), D::NoEvidence},
        {"a mean path Sharpe ratio of 0 fails", with([](Readings& r) { r.mean_path_sharpe = 0.0; }), D::NoEvidence},
        {"an undefined PBO fails", with([](Readings& r) { r.pbo = kNaN; }), D::NoEvidence},
        {"an undefined clustered DSR fails", with([](Readings& r) { r.dsr = kNaN; }), D::NoEvidence},
        {"an undefined CPCV fails", with([](Readings& r) { r.mean_path_sharpe = kNaN; }), D::NoEvidence},
        {"one test not run: undecided", with([](Readings& r) { r.spa_ran = false; }), D::Undecided},
        {"nothing run: undecided",
         with([](Readings& r) { r.pbo_ran = r.dsr_ran = r.spa_ran = r.cpcv_ran = false; }), D::Undecided},
        {"a failure decides even with tests not run",
         with([](Readings& r) { r.cpcv_ran = false, r.spa = 0.5; }), D::NoEvidence},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        CHECK(decision(c.readings) == c.expected);
    }
}

TEST_CASE("the naive DSR is shown, not used") {
    SweepValidation v = validation_of(Readings{});
    v.deflated.front().dsr = 0.0;  // every combination a trial: nothing significant
    CHECK(decide_verdict(v).decision == VerdictDecision::Evidence);
    const std::string text = validation_verdict(v);
    CAPTURE(text);
    CHECK(text.find("Counting every combination as a trial, it would be 0.00; the verdict reads the clustered one") !=
          std::string::npos);
}

TEST_CASE("the readings name each test, its value against its threshold, and what did not run") {
    Readings r;
    r.pbo = 0.1996;
    r.spa_ran = false;
    const Verdict verdict = decide_verdict(validation_of(r));
    REQUIRE(verdict.checks.size() == 4);
    CHECK(verdict.checks[0].test == "pbo");
    CHECK(verdict.checks[0].reading == "PBO 0.1996 < 0.20");  // not "0.20 < 0.20"
    CHECK(verdict.checks[1].reading == "the best row's DSR over 4 effective trials 0.990 >= 0.95");
    CHECK_FALSE(verdict.checks[2].ran);
    CHECK(std::isnan(verdict.checks[2].value));
    CHECK(verdict.checks[2].reading == "the SPA (--spa)");
    const std::string text = validation_verdict(validation_of(r));
    CAPTURE(text);
    CHECK(text.rfind("Undecided: holding: PBO 0.1996 < 0.20, the best row's DSR over 4 effective trials 0.990 >= "
                     "0.95 and 0% of the CPCV paths at or below 0 <= 25%, their mean above 0; not run: the SPA (--spa). ",
                     0) == 0);
    CHECK(std::string(decision_name(VerdictDecision::NoEvidence)) == "no evidence of an edge");
}

}  // namespace
}  // namespace btforge
