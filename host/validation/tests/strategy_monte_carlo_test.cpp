// Monte Carlo on whole strategies (issue 15, item 5): the sma_cross
// reference swept over markets built for the purpose, its period statistics
// fed to the CSCV and the deflated Sharpe ratio exactly as `btforge sweep
// --pbo` does, and its equity marks to the SPA and StepM as `--spa` does. Markets without an edge must read as overfit; a market with
// an edge that one family of parameters can capture must read as real, with
// that family winning out of sample. Fixed seeds; the tolerances are stated
// with each case.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "host/data/market_builder.h"
#include "host/data/synthetic_market.h"
#include "host/engine/account_config.h"
#include "host/engine/cpu_sweep.h"
#include "host/engine/indicator_signatures.h"
#include "host/validation/backtest_overfitting.h"
#include "host/validation/purged_cross_validation.h"
#include "host/validation/return_streams.h"
#include "host/validation/superior_predictive_ability.h"
#include "host/validation/sweep_validation.h"
#include "host/validation/sweep_verdict.h"
#include "spec/embedded_specs.h"

namespace btforge {
namespace {

constexpr int kBars = 8000;
constexpr int kPeriods = 8;  // C(8, 4) = 70 splits of 1000 bars each
constexpr int kMarks = 200;  // --spa's return streams: parts of 40 bars

// One symbol of hourly bars whose log price is `trend(t)` plus a Gaussian
// random walk of `sigma` per bar; no costs and no funding (a strategy's
// fees would be a real, persistent difference between combinations: an
// edge of the cheap ones, which the no-edge case must not have).
Market market_of(std::uint64_t seed, double sigma, double amplitude, double cycle_bars) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal;
    SymbolBars symbol;
    symbol.symbol = "MCUSDT";
    symbol.instrument = make_synthetic_market(SyntheticMarketOptions{1, 3, 10}).instruments[2];
    double walk = 0.0;
    double close = 100.0;
    for (int t = 0; t < kBars; ++t) {
        walk += sigma * normal(random);
        const double trend = amplitude * std::sin(2.0 * std::numbers::pi * t / cycle_bars);
        const double next = 100.0 * std::exp(trend + walk);
        const double open = close;
        symbol.bars.push_back(Bar{1'704'067'200'000 + std::int64_t{3'600'000} * t, open,
                                  std::max(open, next) * 1.001, std::min(open, next) * 0.999, next, 1000.0, 0.0});
        close = next;
    }
    std::vector<SymbolBars> symbols;
    symbols.push_back(std::move(symbol));
    return build_market(std::move(symbols));
}

struct Swept {
    std::vector<PeriodStatistics> periods;
    std::vector<double> marks;  // kMarks per ordinal (Note [Equity marks])
    double initial_equity = 0.0;
    std::vector<double> slow;  // slow_period of each ordinal
    std::uint64_t best = 0;    // the ranking's first (by sharpe), an ordinal
};

// fast 4..16, slow 24..512, two stops: 30 combinations, every one kept.
Swept sweep(const Market& market) {
    StrategySpec spec =
        parse_strategy_spec(*embedded_spec_file("sma_cross.json"), "sma_cross.json", indicator_signatures());
    spec.account.maker_fee = 0.0;
    spec.account.taker_fee = 0.0;
    spec.account.slippage = 0.0;
    const Grid grid = parse_grid(R"({"strategy": "sma_cross", "parameters": {"fast_period": {"values": [4, 8, 16]},
        "slow_period": {"values": [24, 48, 96, 256, 512]}, "stop_pct": {"values": [0.1, 0.3]},
        "position_fraction": {"values": [1.0]}, "allow_short": {"values": [true]}}})",
                                 "monte carlo grid", spec);
    const CombinationSpace space(spec, grid);
    std::vector<std::vector<double>> values;
    for (const GridAxis& axis : grid.axes) values.push_back(axis.values);
    const SeriesCache series = SeriesCache::build(spec, market, values, 2);
    SweepJob job{&bind_strategy(spec), &spec, &space, &market, whole_market(market),
                 make_account_config(spec.account, market), &series};
    job.account.n_periods = kPeriods;
    job.account.equity_marks = kMarks;
    SweepOptions options;
    options.threads = 2;
    options.rank_metric = find_metric_column("sharpe");
    options.top_n = 1;
    Swept out;
    SweepOutcome outcome = run_cpu_sweep(job, options);
    out.periods = std::move(outcome.periods);
    out.marks = std::move(outcome.equity_marks);
    out.initial_equity = job.account.initial_equity;
    out.best = *space.ordinal_of(outcome.top.front().combination_id);
    const std::size_t slow = *spec.parameter_index("slow_period");
    std::vector<double> row(spec.parameters.size());
    for (std::uint64_t n = 0; n < space.count(); ++n) {
        space.decode(space.combination_id(n), row);
        out.slow.push_back(row[slow]);
    }
    return out;
}

DeflatedRow best_deflated(const Swept& s) {
    const std::vector<SweepRowRef> best =
        rank_by_deflated_sharpe(s.periods, kPeriods, 1, 0, [](std::uint64_t n) { return n; });
    return deflate_row(s.periods, kPeriods, sweep_trials(s.periods, kPeriods), best.front());
}

// --spa's test over the 30 return streams: 500 resamples, mean block 14
// (floor sqrt 200), StepM at 5%.
SpaReport spa_of(const Swept& s, std::uint64_t seed) {
    const std::vector<double> streams = returns_of_equity_marks(s.marks, kMarks, s.initial_equity);
    const StationaryBootstrapPlan plan{kMarks, default_mean_block(kMarks), 500, seed};
    SpaOptions options;
    options.mean_block = plan.mean_block;
    options.threads = 2;
    return superior_predictive_ability(Differentials{streams, streams.size() / kMarks, kMarks},
                                       stationary_bootstrap_counts(plan), options);
}

// Random walks (sigma 1% per bar): every combination's result is noise. The
// in-sample winner's out-of-sample rank is then uniform, so PBO is 1/2 in
// expectation; over 8 markets its mean must be at least 0.35 (the splits of
// one market are strongly dependent, so a market's PBO spreads widely: about
// 0.1 is the standard error of the mean). The best row's DSR tests at 95%:
// it may pass by chance in 5% of markets; at most 1 of the 8 may pass.
// The CPCV (2 of 8 periods held out, embargo 1: 7 paths) trades a selection
// whose out-of-sample Sharpe ratio is noise: half of the paths at or below
// 0 in expectation. A market's paths share most of their winners, so its
// share is often 0 or 1 (about 0.37 of spread); the mean of 8 must lie in
// [0.25, 0.75], two standard errors around 1/2 (these seeds give 0.66).
// The SPA tests at 5% that the best return beats cash: with no edge it may
// reject by chance in 5% of markets (fewer: the test is conservative when
// most combinations are not the best), so at most 1 of the 8 may, and
// StepM, which holds the chance of naming any combination wrongly to 5%,
// names none in at least 7.
TEST_CASE("Monte Carlo, strategies on random walks: PBO near one half, the winner's DSR insignificant") {
    double mean_pbo = 0.0;
    int significant = 0;
    double mean_share_not_positive = 0.0;  // of the CPCV's paths
    int spa_rejections = 0;
    int stepm_named = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        const Swept s = sweep(market_of(seed, 0.01, 0.0, 1.0));
        const OverfittingReport r = probability_of_backtest_overfitting(s.periods, kPeriods, {2});
        const DeflatedRow best = best_deflated(s);
        MESSAGE("random walk " << seed << ": PBO " << r.pbo << ", best DSR " << best.dsr << " (sharpe per bar "
                               << best.moments.sharpe << ")");
        mean_pbo += r.pbo / 8.0;
        if (best.dsr >= 0.95) ++significant;
        const PurgedCvReport cv = combinatorial_purged_cv(s.periods, kPeriods, {2, 1}, {2});
        MESSAGE("random walk " << seed << ": CPCV mean path sharpe per bar " << cv.mean_sharpe << ", share <= 0 "
                               << cv.share_not_positive);
        mean_share_not_positive += cv.share_not_positive / 8.0;
        const SpaReport spa = spa_of(s, seed);
        MESSAGE("random walk " << seed << ": SPA p-value " << spa.pvalue_consistent << ", reality check "
                               << spa.pvalue_upper << ", StepM " << spa.superior.size() << " superior");
        if (spa.pvalue_consistent < 0.05) ++spa_rejections;
        if (!spa.superior.empty()) ++stepm_named;
    }
    CHECK(mean_pbo >= 0.35);
    CHECK(significant <= 1);
    CHECK(spa_rejections <= 1);
    CHECK(stepm_named <= 1);
    CHECK(mean_share_not_positive >= 0.25);
    CHECK(mean_share_not_positive <= 0.75);
}

// A planted edge: the log price also follows a sine of amplitude 0.15 and a
// 600-bar cycle (a trend up to 0.16% per bar against 0.4% of noise), which a
// crossover with a slow SMA of 24..96 bars follows (its lag is below the
// 150-bar quarter cycle) and one of 256 or 512 bars does not (its lag is
// about a quarter cycle or more: it trades late or against the trend). Over
// 3 markets: PBO below 0.2, the in-sample winner is of the fast family
// (slow <= 96) in at least 90% of the splits, loses out of sample in at most
// 10% of them, and the best row's DSR is significant at 95%. (At half that
// amplitude, 0.08, the evidence thins out: one of the three markets gave
// PBO 0.26 and a DSR of 0.957, which is where such a test stops being sure.)
// The CPCV's winners are of the fast family in at least 90% of its splits
// too, and none of its paths has a Sharpe ratio at or below 0. The SPA
// rejects "no better than cash" at 5% on every market, and StepM names
// every combination of the fast family (18: 3 fast x 3 slow x 2 stops).
// (It also names 6 to 8 of the slow ones: beating cash is a weaker claim
// than winning, and a 256- or 512-bar crossover still earns on a cycle of
// this amplitude, late; so the set is not required to be the family only.)
TEST_CASE("Monte Carlo, a planted edge: PBO low, the family that captures it wins out of sample") {
    for (std::uint64_t seed = 11; seed <= 13; ++seed) {
        CAPTURE(seed);
        const Swept s = sweep(market_of(seed, 0.004, 0.15, 600.0));
        const OverfittingReport r = probability_of_backtest_overfitting(s.periods, kPeriods, {2});
        const auto family = std::count_if(r.splits.begin(), r.splits.end(),
                                          [&](const OverfittingSplit& split) { return s.slow[split.winner] <= 96; });
        const DeflatedRow best = best_deflated(s);
        MESSAGE("edge " << seed << ": PBO " << r.pbo << ", family wins " << family << " of " << r.splits.size()
                        << ", loss " << r.probability_of_loss << ", best DSR " << best.dsr);
        CHECK(r.pbo < 0.2);
        CHECK(static_cast<double>(family) >= 0.9 * static_cast<double>(r.splits.size()));
        CHECK(r.probability_of_loss <= 0.1);
        CHECK(best.dsr >= 0.95);
        const PurgedCvReport cv = combinatorial_purged_cv(s.periods, kPeriods, {2, 1}, {2});
        const auto cv_family = std::count_if(cv.splits.begin(), cv.splits.end(),
                                             [&](const PurgedCvSplit& split) { return s.slow[split.winner] <= 96; });
        MESSAGE("edge " << seed << ": CPCV family wins " << cv_family << " of " << cv.splits.size()
                        << ", mean path sharpe per bar " << cv.mean_sharpe << ", share <= 0 " << cv.share_not_positive);
        CHECK(static_cast<double>(cv_family) >= 0.9 * static_cast<double>(cv.splits.size()));
        CHECK(cv.share_not_positive == 0.0);
        const SpaReport spa = spa_of(s, seed);
        const auto named_fast = std::count_if(spa.superior.begin(), spa.superior.end(),
                                              [&](std::uint64_t n) { return s.slow[n] <= 96; });
        MESSAGE("edge " << seed << ": SPA p-value " << spa.pvalue_consistent << ", StepM " << spa.superior.size()
                        << " superior, " << named_fast << " of the fast family");
        CHECK(spa.pvalue_consistent < 0.05);
        CHECK(named_fast == 18);
    }
}

// Note [The verdict], proven on whole strategies: the validation `btforge
// sweep --pbo --cpcv --spa 500` runs (every test, the effective trials from
// the return streams), its decision read as the user reads it. On random
// walks (sigma 1% per bar: no edge to find) it must say "evidence of an
// edge" in at most 5 of 100 markets; on the planted edge of the test above
// (a sine of amplitude 0.15 and a 600-bar cycle in the log price, against
// 0.4% of noise per bar) in at least 27 of 30. Every market is its own seed.
Verdict verdict_of(const Swept& s, std::uint64_t seed) {
    ValidationRequest request;
    request.n_periods = kPeriods;
    request.pbo = true;
    request.cpcv = PurgedCvPlan{2, 1};
    request.return_parts = kMarks;
    request.equity_marks = s.marks;
    request.initial_equity = s.initial_equity;
    request.seed = seed;
    request.spa = StationaryBootstrapPlan{kMarks, default_mean_block(kMarks), 500, seed};
    request.top_rows = {{s.best, s.best}};
    request.threads = 2;
    request.pbo_options.threads = 2;
    return decide_verdict(validate_sweep(s.periods, request));
}

TEST_CASE("Monte Carlo, the verdict: no evidence on random walks, evidence on planted edges") {
    int evidence_on_walks = 0;
    int passed_alone[4] = {};  // each test's own passes on the walks, for the docs
    for (std::uint64_t seed = 101; seed <= 200; ++seed) {
        const Verdict v = verdict_of(sweep(market_of(seed, 0.01, 0.0, 1.0)), seed);
        REQUIRE(v.decision != VerdictDecision::Undecided);
        for (std::size_t i = 0; i < 4; ++i) passed_alone[i] += v.checks[i].passed ? 1 : 0;
        if (v.decision == VerdictDecision::Evidence) {
            ++evidence_on_walks;
            std::string read;
            for (const VerdictCheck& c : v.checks) read += " " + c.reading + ";";
            MESSAGE("random walk " << seed << " reads as evidence:" << read);
        }
    }
    int evidence_on_edges = 0;
    for (std::uint64_t seed = 201; seed <= 230; ++seed) {
        const Verdict v = verdict_of(sweep(market_of(seed, 0.004, 0.15, 600.0)), seed);
        REQUIRE(v.decision != VerdictDecision::Undecided);
        if (v.decision == VerdictDecision::Evidence) {
            ++evidence_on_edges;
        } else {
            std::string failed;
            for (const VerdictCheck& c : v.checks) {
                if (!c.passed) failed += " " + c.reading + ";";
            }
            MESSAGE("planted edge " << seed << " reads as no evidence:" << failed);
        }
    }
    MESSAGE("evidence on " << evidence_on_walks << " of 100 random walks, " << evidence_on_edges << " of 30 planted edges");
    MESSAGE("on the random walks, alone: PBO passes " << passed_alone[0] << ", the clustered DSR " << passed_alone[1]
                                                      << ", the SPA " << passed_alone[2] << ", the CPCV " << passed_alone[3]);
    CHECK(evidence_on_walks <= 5);
    CHECK(evidence_on_edges >= 27);
}

}  // namespace
}  // namespace btforge
