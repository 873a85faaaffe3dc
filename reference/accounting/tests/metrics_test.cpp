#include <cmath>
#include <limits>

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
    metrics_begin(acc, 100.0);
    metrics_on_bar_close(acc, 110.0, 1);
    metrics_on_bar_close(acc, 104.5, 1);
    metrics_on_bar_close(acc, 114.95, 0);
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
    metrics_begin(acc, 100.0);
    metrics_on_bar_close(acc, 100.0, 0);
    metrics_on_bar_close(acc, 100.0, 0);
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
    metrics_begin(acc, 100.0);
    metrics_on_trade_closed(acc, 3.0, 100.0);
    metrics_on_bar_close(acc, 103.0, 0);
    Metrics m{};
    metrics_finish(acc, 103.0, 0.0, 0.0, 1.0, m);
    CHECK(m.profit_factor == std::numeric_limits<double>::infinity());
}

TEST_CASE("a losing streak is broken by a non-loss") {
    MetricsAccumulator acc;
    metrics_begin(acc, 100.0);
    const double pnls[] = {-1, -1, 0, -1, -1, -1, 2, -1};
    for (double pnl : pnls) metrics_on_trade_closed(acc, pnl, 10.0);
    Metrics m{};
    metrics_finish(acc, 100.0, 0.0, 0.0, 1.0, m);
    CHECK(m.max_consecutive_losses == 3);
}
