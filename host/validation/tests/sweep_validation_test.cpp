// Note [Validation of a sweep]: the deflated rows and --rank-by dsr.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "host/validation/period_performance.h"
#include "host/validation/sweep_validation.h"
#include "host/validation/sweep_verdict.h"
#include "host/validation/tests/period_of_returns.h"

namespace btforge {
namespace {

// 40 combinations x 4 periods of 50 bars: normal returns with drifts from
// -0.1 to 0.3 per bar standard deviation, every fifth with rare large
// losses (negative skewness, fat tails), which the DSR punishes.
std::vector<PeriodStatistics> sweep_of(std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> uniform;
    std::vector<PeriodStatistics> out;
    for (int n = 0; n < 40; ++n) {
        const double drift = -0.1 + 0.01 * n;
        for (int p = 0; p < 4; ++p) {
            std::vector<double> bars;
            for (int b = 0; b < 50; ++b) {
                const double crash = n % 5 == 0 && uniform(random) < 0.03 ? -0.04 : 0.0;
                bars.push_back(0.01 * (normal(random) + drift) + crash);
            }
            out.push_back(period_of(bars));
        }
    }
    return out;
}

TEST_CASE("rank_by_deflated_sharpe: the order of the DSR's z statistic, best first, ties by id") {
    std::vector<PeriodStatistics> periods = sweep_of(8);
    // Combination 39 duplicates 38: they tie, and the smaller id wins the tie.
    std::copy_n(periods.begin() + 38 * 4, 4, periods.begin() + 39 * 4);
    const auto id_of = [](std::uint64_t ordinal) { return 1000 - ordinal; };  // ids in reverse: 39 has the smaller
    const SweepTrials trials = sweep_trials(periods, 4);
    CHECK(trials.trials == 40);
    CHECK(trials.expected_max_sharpe > 0.0);

    // The oracle: every row's z, sorted plainly.
    std::vector<std::pair<double, std::uint64_t>> z;
    for (std::uint64_t n = 0; n < 40; ++n) {
        const ReturnMoments m = moments_of_periods(std::span(periods).subspan(n * 4, 4), 0b1111);
        z.emplace_back(probabilistic_sharpe_statistic(m, trials.expected_max_sharpe), n);
    }
    std::stable_sort(z.begin(), z.end(), [&](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : id_of(a.second) < id_of(b.second);
    });
    const std::vector<SweepRowRef> top = rank_by_deflated_sharpe(periods, 4, 10, 0, id_of);
    REQUIRE(top.size() == 10);
    for (std::size_t i = 0; i < top.size(); ++i) {
        CAPTURE(i);
        CHECK(top[i].ordinal == z[i].second);
        CHECK(top[i].combination_id == id_of(z[i].second));
    }
    const auto pos38 = std::find_if(top.begin(), top.end(), [](const SweepRowRef& r) { return r.ordinal == 38; });
    const auto pos39 = std::find_if(top.begin(), top.end(), [](const SweepRowRef& r) { return r.ordinal == 39; });
    REQUIRE(pos38 != top.end());
    CHECK(pos39 + 1 == pos38);

    // The DSR is monotone in z: the deflated rows come out in order.
    double previous = 2.0;
    for (const SweepRowRef& r : top) {
        const DeflatedRow d = deflate_row(periods, 4, trials, r);
        CHECK(d.dsr <= previous);
        CHECK(d.dsr <= d.psr);
        previous = d.dsr;
    }
    // The crash-prone rows (n % 5 == 0) lose places to rows of lower Sharpe ratio.
    bool reordered = false;
    for (std::size_t i = 0; i + 1 < top.size(); ++i) {
        const auto m = [&](std::uint64_t n) { return moments_of_periods(std::span(periods).subspan(n * 4, 4), 0b1111); };
        if (m(top[i].ordinal).sharpe < m(top[i + 1].ordinal).sharpe) reordered = true;
    }
    CHECK(reordered);
    CHECK(rank_by_deflated_sharpe(periods, 4, 0, 0, id_of).empty());
    CHECK(rank_by_deflated_sharpe(periods, 4, 100, 0, id_of).size() == 40);
}

// The trials and the DSR ranking scored on threads, over tiles of 4096
// rows: the same as on one thread, and the ranking the plain sort of z.
TEST_CASE("rank_by_deflated_sharpe and the trials on several threads and tiles are those of one thread") {
    std::vector<PeriodStatistics> periods;
    for (std::uint64_t seed = 0; seed < 250; ++seed) {  // 10 000 rows, duplicates across tiles
        const std::vector<PeriodStatistics> part = sweep_of(seed % 200);
        periods.insert(periods.end(), part.begin(), part.end());
    }
    // Every third row has too few trades (0; the others 4 x 5 = 20).
    for (std::size_t i = 0; i < periods.size(); ++i) periods[i].trades = (i / 4) % 3 == 0 ? 0 : 5;
    const auto id_of = [](std::uint64_t ordinal) { return ordinal * 7 % 10007; };
    const SweepTrials one = sweep_trials(periods, 4, 1);
    const SweepTrials three = sweep_trials(periods, 4, 3);
    CHECK(one.trials == 10000);
    CHECK(one.sharpe_variance == three.sharpe_variance);
    CHECK(one.expected_max_sharpe == three.expected_max_sharpe);
    const std::vector<SweepRowRef> a = rank_by_deflated_sharpe(periods, 4, 25, 10, id_of, 1);
    const std::vector<SweepRowRef> b = rank_by_deflated_sharpe(periods, 4, 25, 10, id_of, 3);
    REQUIRE(a.size() == 25);
    REQUIRE(b.size() == 25);
    // The oracle: rows with enough trades by z, then by id.
    std::vector<std::pair<double, std::uint64_t>> z;
    for (std::uint64_t n = 0; n < one.trials; ++n) {
        const auto row = std::span(periods).subspan(n * 4, 4);
        long long trades = 0;
        for (const PeriodStatistics& p : row) trades += p.trades;
        if (trades < 10) continue;
        z.emplace_back(probabilistic_sharpe_statistic(moments_of_periods(row, 0b1111), one.expected_max_sharpe), n);
    }
    std::sort(z.begin(), z.end(), [&](const auto& x, const auto& y) {
        return x.first != y.first ? x.first > y.first : id_of(x.second) < id_of(y.second);
    });
    REQUIRE(z.size() > a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        CAPTURE(i);
        CHECK(a[i].ordinal == b[i].ordinal);
        CHECK(a[i].ordinal == z[i].second);
    }
}

// Note [Undefined statistics], issue 29.
TEST_CASE("trials: one combination, identical combinations, none with finite returns") {
    const std::vector<PeriodStatistics> row = {period_of({0.01, -0.02, 0.005}), period_of({0.03, 0.01, -0.01})};
    const SweepTrials one = sweep_trials(row, 2);
    CHECK(one.trials == 1);
    CHECK(std::isnan(one.sharpe_variance));
    CHECK(std::string(one.sharpe_variance_undefined) == kOneCombination);
    CHECK(one.expected_max_sharpe == 0.0);  // nothing was selected: the DSR is the PSR(0)
    CHECK(one.expected_max_sharpe_undefined == nullptr);
    const DeflatedRow only = deflate_row(row, 2, one, {0, 0});
    CHECK(only.dsr_undefined == nullptr);
    CHECK(only.dsr == only.psr);

    std::vector<PeriodStatistics> same = row;
    same.insert(same.end(), row.begin(), row.end());
    const SweepTrials twins = sweep_trials(same, 2);
    CHECK(twins.sharpe_variance == 0.0);
    CHECK(twins.sharpe_variance_undefined == nullptr);
    CHECK(std::isnan(twins.expected_max_sharpe));
    CHECK(std::string(twins.expected_max_sharpe_undefined) == kZeroTrialVariance);
    const DeflatedRow twin = deflate_row(same, 2, twins, {1, 1});
    CHECK(twin.psr_undefined == nullptr);
    CHECK(std::isfinite(twin.psr));
    CHECK(std::isnan(twin.dsr));
    CHECK(std::string(twin.dsr_undefined) == kZeroTrialVariance);

    std::vector<PeriodStatistics> broken = same;
    for (PeriodStatistics& p : broken) p.return_sum = std::nan("");
    const SweepTrials nan = sweep_trials(broken, 2);
    CHECK(std::isnan(nan.sharpe_variance));
    CHECK(std::string(nan.sharpe_variance_undefined) == "fewer than two combinations have finite period returns");
    const DeflatedRow not_finite = deflate_row(broken, 2, nan, {0, 0});
    CHECK(std::string(not_finite.psr_undefined) == kNotFiniteReturns);
    CHECK(std::isnan(not_finite.psr));
}

// Issue 29: rows that never traded had PSR and DSR 0.5 from a variance of 0.
TEST_CASE("a row without variance has neither PSR nor DSR; the validation says why") {
    std::vector<PeriodStatistics> periods = sweep_of(3);
    for (int p = 0; p < 4; ++p) periods[static_cast<std::size_t>(p)] = period_of(std::vector<double>(50, 0.0));
    ValidationRequest request;
    request.n_periods = 4;
    request.top_rows = {{0, 0}, {1, 1}};
    const SweepValidation v = validate_sweep(periods, request);
    REQUIRE(v.deflated.size() == 2);
    CHECK(std::string(v.deflated[0].psr_undefined) == kNoVariance);
    CHECK(std::string(v.deflated[0].dsr_undefined) == kNoVariance);
    CHECK(std::isnan(v.deflated[0].psr));
    CHECK(v.deflated[1].dsr_undefined == nullptr);
    CHECK(validation_verdict(v).find("deflated Sharpe ratio is undefined (zero variance of its bar returns") !=
          std::string::npos);
}

TEST_CASE("the verdict says what is undefined instead of a number: one combination") {
    const std::vector<PeriodStatistics> row = {period_of({0.01, -0.02, 0.005}), period_of({0.03, 0.01, -0.01}),
                                               period_of({-0.01, 0.02, 0.0}), period_of({0.0, 0.01, -0.03})};
    ValidationRequest request;
    request.n_periods = 4;
    request.pbo = true;
    request.walk_forward = WalkForwardPlan{WalkForwardWindow::Rolling, 2};
    request.top_rows = {{0, 0}};
    const SweepValidation v = validate_sweep(row, request);
    const std::string verdict = validation_verdict(v);
    CAPTURE(verdict);
    CHECK(verdict.find("probability of backtest overfitting is undefined (one combination: nothing was selected)") !=
          std::string::npos);
    CHECK(verdict.find("most likely overfit") == std::string::npos);
    CHECK(verdict.find("With one trial nothing was selected") != std::string::npos);
    CHECK(verdict.find("no step selected anything (one combination: nothing was selected)") != std::string::npos);
}

// Note [Uninformative splits]: A and B tie in periods 0 and 1.
TEST_CASE("the verdict says over how many splits the PBO is taken when some rank nothing") {
    const std::vector<PeriodStatistics> returns = {
        period_of({0.01, -0.02}), period_of({0.03, 0.01}), period_of({0.02, 0.03}), period_of({-0.01, 0.00}),
        period_of({0.01, -0.02}), period_of({0.03, 0.01}), period_of({-0.02, 0.01}), period_of({0.02, 0.03}),
    };
    ValidationRequest request;
    request.n_periods = 4;
    request.pbo = true;
    const SweepValidation v = validate_sweep(returns, request);
    REQUIRE(v.pbo);
    CHECK(v.pbo->informative_splits == 4);
    const std::string verdict = validation_verdict(v);
    CAPTURE(verdict);
    CHECK(verdict.find("of the 4 ways to split the 4 periods in half that rank anything (in the other 2, every "
                       "combination ties in one half)") != std::string::npos);
}

// Note [Rows with few trades] under --rank-by dsr: the periods' trades add up to n_trades.
TEST_CASE("rank_by_deflated_sharpe puts rows with few trades after the others, undefined DSRs last") {
    std::vector<PeriodStatistics> periods = sweep_of(8);
    for (std::size_t i = 0; i < periods.size(); ++i) periods[i].trades = static_cast<int>(i / 4 % 7);  // 0..24 a row
    // Row 5 never moves: its DSR is undefined.
    for (int p = 0; p < 4; ++p) periods[5 * 4 + static_cast<std::size_t>(p)] = period_of(std::vector<double>(50, 0.0));
    const auto id_of = [](std::uint64_t ordinal) { return ordinal; };
    const std::vector<SweepRowRef> all = rank_by_deflated_sharpe(periods, 4, 40, 10, id_of);
    REQUIRE(all.size() == 40);
    const auto trades = [&](const SweepRowRef& r) {
        int t = 0;
        for (int p = 0; p < 4; ++p) t += periods[r.ordinal * 4 + static_cast<std::size_t>(p)].trades;
        return t;
    };
    std::size_t first_few = 40;
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (trades(all[i]) < 10 && first_few == 40) first_few = i;
        if (i > first_few && all[i].ordinal != 5) CHECK(trades(all[i]) < 10);
    }
    CHECK(first_few > 0);
    CHECK(all.back().ordinal == 5);
    // Without a minimum the order is the z's alone.
    const std::vector<SweepRowRef> plain = rank_by_deflated_sharpe(periods, 4, 40, 0, id_of);
    CHECK(plain.back().ordinal == 5);
    bool differs = false;
    for (std::size_t i = 0; i < all.size(); ++i) differs = differs || all[i].ordinal != plain[i].ordinal;
    CHECK(differs);
}

}  // namespace
}  // namespace btforge
