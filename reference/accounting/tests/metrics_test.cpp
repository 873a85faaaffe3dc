#include <cmath>
#include <algorithm>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include "reference/metrics/metrics.h"

using namespace btforge;

// Hand-worked: initial 100, closes 110, 104.5, 114.95 -> returns 0.1, -0.05, 0.1.
// mean 0.05; squared deviations 0.0025 + 0.01 + 0.0025 = 0.015 -> population var 0.005.
// bars_per_year 4 -> sqrt 2. sharpe = 0.05 / sqrt(0.005) * 2 = 1.41421356...
// downside: sqrt(0.0025 / 3) = 0.0288675...; sortino = 0.05 / 0.0288675 * 2 = 3.4641016...
// drawdown peak 110 -> 104.5: 0.05. total return 0.1495; annualized 0.1495 * 4 / 3;
// calmar = that / 0.05 = 3.98666...
TEST_CASE("metrics of a hand-worked equity path and trade list") {
    MetricsAccumulator acc;
    metrics_begin(acc, 100.0, 0, 0, nullptr, 0, 0);
    metrics_on_bar_close(acc, 110.0, 1, 0.0, 0.0);
    metrics_on_bar_close(acc, 104.5, 1, 0.0, 0.0);
    metrics_on_bar_close(acc, 114.95, 0, 0.0, 0.0);
    metrics_on_trade_closed(acc, 10.0, 100.0);
    metrics_on_trade_closed(acc, -5.0, 100.0);
    metrics_on_trade_closed(acc, -3.0, 50.0);
    metrics_on_trade_closed(acc, 2.0, 100.0);
    Metrics m{};
    metrics_finish(acc, 114.95, 1.5, 0.25, 4.0, m);
    CHECK(m.final_equity == 114.95);
    CHECK(m.net_pnl == doctest::Approx(14.95).epsilon(1e-12));
    CHECK(m.total_return == doctest::Approx(0.1495).epsilon(1e-12));
    CHECK(m.fees_paid == 1.5);
    CHECK(m.funding_paid == 0.25);
    CHECK(m.sharpe == doctest::Approx(std::sqrt(2.0)).epsilon(1e-12));
    CHECK(m.sortino == doctest::Approx(2.0 * std::sqrt(3.0)).epsilon(1e-12));
    CHECK(m.max_drawdown == doctest::Approx(0.05).epsilon(1e-12));
    CHECK(m.calmar == doctest::Approx(0.1495 * 4.0 / 3.0 / 0.05).epsilon(1e-12));
    CHECK(m.exposure == doctest::Approx(2.0 / 3.0).epsilon(1e-15));
    CHECK(m.n_trades == 4);
    CHECK(m.n_wins == 2);
    CHECK(m.win_rate == 0.5);
    CHECK(m.gross_profit == 12.0);
    CHECK(m.gross_loss == 8.0);
    CHECK(m.profit_factor == 1.5);
    CHECK(m.avg_trade_return == doctest::Approx(0.0025).epsilon(1e-12));
    CHECK(m.max_consecutive_losses == 2);
}

TEST_CASE("metrics without trades or variation are zeros, not NaN") {
    MetricsAccumulator acc;
    metrics_begin(acc, 100.0, 0, 0, nullptr, 0, 0);
    metrics_on_bar_close(acc, 100.0, 0, 0.0, 0.0);
    metrics_on_bar_close(acc, 100.0, 0, 0.0, 0.0);
    Metrics m{};
    metrics_finish(acc, 100.0, 0.0, 0.0, 8766.0, m);
    CHECK(m.sharpe == 0.0);
    CHECK(m.sortino == 0.0);
    CHECK(m.calmar == 0.0);
    CHECK(m.profit_factor == 0.0);
    CHECK(m.win_rate == 0.0);
    CHECK(m.avg_trade_return == 0.0);
    CHECK(m.max_drawdown == 0.0);
}

TEST_CASE("profit factor with wins and no loss is infinite") {
    MetricsAccumulator acc;
    metrics_begin(acc, 100.0, 0, 0, nullptr, 0, 0);
    metrics_on_trade_closed(acc, 3.0, 100.0);
    metrics_on_bar_close(acc, 103.0, 0, 0.0, 0.0);
    Metrics m{};
    metrics_finish(acc, 103.0, 0.0, 0.0, 1.0, m);
    CHECK(m.profit_factor == std::numeric_limits<double>::infinity());
}

TEST_CASE("a losing streak is broken by a non-loss") {
    MetricsAccumulator acc;
    metrics_begin(acc, 100.0, 0, 0, nullptr, 0, 0);
    const double pnls[] = {-1, -1, 0, -1, -1, -1, 2, -1};
    for (double pnl : pnls) metrics_on_trade_closed(acc, pnl, 10.0);
    Metrics m{};
    metrics_finish(acc, 100.0, 0.0, 0.0, 1.0, m);
    CHECK(m.max_consecutive_losses == 3);
}

// Note [Period statistics], worked by hand. Initial equity 100, closes 110,
// 99, 108.9, 98.01 (returns +0.1, -0.1, +0.1, -0.1), two periods of two
// bars. Period 0: sum 0, squares 0.02, downside 0.01, from 100 to 99, the
// fall from the peak 110 to 99 is 0.1. Period 1 starts at 99, peaks at
// 108.9 and falls to 98.01: 0.1 again. A winning trade (+10) closes in bar
// 1, two losing ones (-5, -3) in bars 2 and 3. The account's running fees
// 1, 1.5, 2, 2.75 and funding 0.1, 0.1, -0.2, -0.3 give each period its
// difference.
TEST_CASE("period statistics of a hand-worked path") {
    MetricsAccumulator acc;
    PeriodStatistics periods[2] = {};
    metrics_begin(acc, 100.0, 4, 2, periods, 0, 0);
    metrics_on_bar_close(acc, 110.0, 1, 1.0, 0.1);
    metrics_on_trade_closed(acc, 10.0, 100.0);
    metrics_on_bar_close(acc, 99.0, 1, 1.5, 0.1);
    metrics_on_trade_closed(acc, -5.0, 100.0);
    metrics_on_bar_close(acc, 108.9, 1, 2.0, -0.2);
    metrics_on_trade_closed(acc, -3.0, 100.0);
    metrics_on_bar_close(acc, 98.01, 0, 2.75, -0.3);
    const PeriodStatistics& a = periods[0];
    const PeriodStatistics& b = periods[1];
    CHECK(a.bars == 2);
    CHECK(b.bars == 2);
    CHECK(a.return_sum == doctest::Approx(0.0).scale(1.0).epsilon(1e-15));
    CHECK(a.return_sum_squares == doctest::Approx(0.02).epsilon(1e-12));
    CHECK(a.downside_sum_squares == doctest::Approx(0.01).epsilon(1e-12));
    // r = +0.1, -0.1: the cubes cancel, the fourth powers add.
    CHECK(a.return_sum_cubes == doctest::Approx(0.0).scale(1.0).epsilon(1e-15));
    CHECK(a.return_sum_fourths == doctest::Approx(0.0002).epsilon(1e-12));
    CHECK(a.start_equity == 100.0);
    CHECK(a.end_equity == 99.0);
    CHECK(a.max_drawdown == doctest::Approx(0.1).epsilon(1e-12));
    CHECK(a.trades == 1);
    CHECK(a.wins == 1);
    CHECK(a.gross_profit == 10.0);
    CHECK(a.gross_loss == 0.0);
    CHECK(a.fees == 1.5);
    CHECK(a.funding == 0.1);
    CHECK(b.start_equity == 99.0);
    CHECK(b.end_equity == 98.01);
    CHECK(b.max_drawdown == doctest::Approx(0.1).epsilon(1e-12));
    CHECK(b.return_sum == doctest::Approx(0.0).scale(1.0).epsilon(1e-15));
    CHECK(b.trades == 2);
    CHECK(b.wins == 0);
    CHECK(b.gross_loss == 8.0);
    CHECK(b.fees == 1.25);
    CHECK(b.funding == doctest::Approx(-0.4).epsilon(1e-15));
    CHECK(a.reserved == 0);
}

TEST_CASE("periods split the bars as evenly as integer division allows") {
    struct Case {
        int n_bars, n_periods;
        std::vector<int> bars;
    };
    const Case cases[] = {{7, 3, {2, 2, 3}}, {16, 16, std::vector<int>(16, 1)}, {5, 2, {2, 3}}, {9, 4, {2, 2, 2, 3}},
                          {1, 1, {1}}};
    for (const Case& c : cases) {
        CAPTURE(c.n_bars);
        CAPTURE(c.n_periods);
        MetricsAccumulator acc;
        std::vector<PeriodStatistics> periods(static_cast<std::size_t>(c.n_periods));
        metrics_begin(acc, 100.0, c.n_bars, c.n_periods, periods.data(), 0, 0);
        for (int t = 0; t < c.n_bars; ++t) metrics_on_bar_close(acc, 100.0 + t, 0, 0.0, 0.0);
        std::vector<int> bars;
        for (const PeriodStatistics& p : periods) bars.push_back(p.bars);
        CHECK(bars == c.bars);
        // Each period starts where the one before ended.
        for (std::size_t p = 1; p < periods.size(); ++p) CHECK(periods[p].start_equity == periods[p - 1].end_equity);
        CHECK(periods.back().end_equity == 100.0 + (c.n_bars - 1));
    }
}

// Note [Period statistics]: the whole window's statistics from the
// periods. Integers add up exactly; real sums to rounding. A seeded random
// equity path (LCG, 5000 bars, trades closing on every 7th bar) with S = 16.
TEST_CASE("period statistics add up to the whole window's") {
    MetricsAccumulator acc;
    PeriodStatistics periods[16] = {};
    const int n = 5000;
    metrics_begin(acc, 1000.0, n, 16, periods, 0, 0);
    unsigned long long state = 12345;
    auto uniform = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / 9007199254740992.0;
    };
    double equity = 1000.0;
    double fees = 0.0;
    double sum_r = 0.0;
    double gross_profit = 0.0;
    for (int t = 0; t < n; ++t) {
        const double previous = equity;
        equity *= 1.0 + 0.02 * (uniform() - 0.5);
        fees += 0.01;
        if (t % 7 == 3) {
            const double pnl = 10.0 * (uniform() - 0.45);
            metrics_on_trade_closed(acc, pnl, 500.0);
            if (pnl > 0.0) gross_profit += pnl;
        }
        sum_r += equity / previous - 1.0;
        metrics_on_bar_close(acc, equity, 1, fees, 0.0);
    }
    Metrics m{};
    metrics_finish(acc, equity, fees, 0.0, 8766.0, m);
    int bars = 0, trades = 0, wins = 0;
    double returns = 0.0, profit = 0.0, period_fees = 0.0, worst = 0.0;
    for (const PeriodStatistics& p : periods) {
        bars += p.bars;
        trades += p.trades;
        wins += p.wins;
        returns += p.return_sum;
        profit += p.gross_profit;
        period_fees += p.fees;
        worst = std::max(worst, p.max_drawdown);
    }
    CHECK(bars == n);
    CHECK(trades == m.n_trades);
    CHECK(wins == m.n_wins);
    // 16 partial sums of about 313 terms against one sum of 5000: within
    // 5000 ulps of the sum of magnitudes (a generous bound for both).
    CHECK(std::abs(returns - sum_r) <= 5000 * 0x1p-52 * 0.01 * n);
    CHECK(std::abs(profit - m.gross_profit) <= 1e-12 * m.gross_profit);
    CHECK(std::abs(period_fees - m.fees_paid) <= 1e-12 * m.fees_paid);
    // A period's drawdown starts from its own peak: never above the window's.
    CHECK(worst <= m.max_drawdown);
    CHECK(periods[15].end_equity == m.final_equity);
}

// Note [Equity marks], Note [Equity marks at UTC days]: the same five bars
// marked in 2 equal parts (after bars 1 and 4) and at 3 day ends (after
// bars 0, 3 and 4, the flags mark_bar_close computes from the timestamps);
// a day end beyond the M the host counted writes nothing.
TEST_CASE("equity marks: equal parts and UTC days") {
    const double equity[] = {101.0, 102.0, 103.0, 104.0, 105.0};
    const int ends_day[] = {1, 0, 0, 1, 1};
    struct Case {
        int marks;
        int daily;
        std::vector<double> expected;
    };
    const std::vector<Case> cases = {
        {2, 0, {102.0, 105.0}},
        {3, 1, {101.0, 104.0, 105.0}},
        {2, 1, {101.0, 104.0, -1.0}},  // a third day end finds no room
        {5, 0, {101.0, 102.0, 103.0, 104.0, 105.0}},
    };
    for (const Case& c : cases) {
        CAPTURE(c.marks);
        CAPTURE(c.daily);
        MetricsAccumulator acc;
        metrics_begin(acc, 100.0, 5, 0, nullptr, c.marks, c.daily);
        CHECK((acc.mark_end == kMarksAtUtcDays) == (c.daily != 0));
        std::vector<double> curve(c.expected.size(), -1.0);
        for (int t = 0; t < 5; ++t) {
            metrics_on_bar_close(acc, equity[t], 0, 0.0, 0.0);
            metrics_mark_equity(acc, curve.data(), t, equity[t], ends_day[t]);
        }
        CHECK(curve == c.expected);
    }
    // Every bar when M is 0, whatever the flags.
    MetricsAccumulator acc;
    metrics_begin(acc, 100.0, 5, 0, nullptr, 0, 1);
    std::vector<double> curve(5, -1.0);
    for (int t = 0; t < 5; ++t) metrics_mark_equity(acc, curve.data(), t, equity[t], 0);
    CHECK(curve == std::vector<double>{101.0, 102.0, 103.0, 104.0, 105.0});
}
