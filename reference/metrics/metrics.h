#pragma once

#include <cmath>
#include <limits>

#include "reference/kernel_marker.h"
#include "reference/metrics/period_statistics.h"

namespace btforge {

// The results row of one combination (SPEC §7). Field order is the column
// order of every report.
struct BT_KERNEL Metrics {
    double final_equity;
    double total_return;      // final / initial - 1
    double net_pnl;           // final - initial
    double gross_profit;      // sum of winning round trips' net PnL
    double gross_loss;        // sum of losing round trips' net losses, positive
    double fees_paid;
    double funding_paid;      // positive: paid
    int n_trades;             // round trips; partial closes belong to their trade
    int n_wins;
    double win_rate;
    double profit_factor;     // gross_profit / gross_loss; +inf with no loss and some profit; 0 with no trade
    double max_drawdown;      // of close-marked equity, fraction of the running peak
    double sharpe;            // mean / population std of per-bar returns * sqrt(bars_per_year)
    double sortino;           // mean / downside deviation * sqrt(bars_per_year)
    double calmar;            // annualized return / max_drawdown, see Note [Annualizing without pow]
    double exposure;          // fraction of bars with an open position at the close
    double avg_trade_return;  // mean of round trip net PnL / entry notional
    int max_consecutive_losses;
    int n_liquidations;       // round trips ended by a liquidation (Note [Liquidation rule])
    double liquidation_loss;  // their net loss (fees and funding included), positive: the equity liquidations took
    int ambiguous_bars;       // bars whose outcome the order of the high and the low decided (Note [Ambiguous bars])
    int magnified_bars;       // bars their finer bars settled instead (Note [Finer bars])
};

// Note [Rows with non-finite metrics]
// Every metric of a sound run is a finite number but one: profit_factor is
// +inf by definition when a combination won and never lost. Any other NaN or
// infinity (an equity that overflowed, a ratio of infinities) means the
// row's numbers are not results, so such a row is never ranked as if valid:
// it sorts after every valid row whatever metric ranks (ties by combination
// id, Note [Deterministic ranking]), reports mark it, and the run counts it.
// The device top-N selection (Note [Rank keys]) calls this same function on
// its own layout of the row, so it is a constexpr template of arithmetic
// only: x - x is 0 exactly for a finite x and NaN otherwise.
constexpr bool metric_is_finite(double x) { return x - x == 0.0; }

template <class Row>
constexpr bool metrics_are_finite(const Row& m) {
    return metric_is_finite(m.final_equity) && metric_is_finite(m.total_return) && metric_is_finite(m.net_pnl) &&
           metric_is_finite(m.gross_profit) && metric_is_finite(m.gross_loss) && metric_is_finite(m.fees_paid) &&
           metric_is_finite(m.funding_paid) && metric_is_finite(m.win_rate) &&
           (metric_is_finite(m.profit_factor) || m.profit_factor > 1.0e308) && metric_is_finite(m.max_drawdown) &&
           metric_is_finite(m.sharpe) && metric_is_finite(m.sortino) && metric_is_finite(m.calmar) &&
           metric_is_finite(m.exposure) && metric_is_finite(m.avg_trade_return) &&
           metric_is_finite(m.liquidation_loss);
}
// The list above names every real field: a new metric must join it.
// (Five ints: the last is followed by four bytes of padding.)
static_assert(sizeof(Metrics) == 16 * sizeof(double) + 6 * sizeof(int), "a metric was added: list it above");

// Note [Annualizing without pow]
// Compounded annualization needs pow(), which is not correctly rounded on
// either side of the CPU/GPU parity line (SPEC §3). Returns are annualized
// arithmetically instead: total_return * bars_per_year / n_bars.

// Running state of the online metrics, updated in bar order. The trade
// statistics change only when a trade closes, the downside and exposure sums
// only on some bars (BT_COLD, Note [Cold fields]).
struct BT_KERNEL MetricsAccumulator {
    BT_COLD double initial_equity;
    double prev_equity;
    double peak_equity;
    double max_drawdown;
    long long n_returns;
    double mean_return;       // Welford
    double m2_return;
    BT_COLD double sum_sq_downside;   // sum of min(r, 0)^2
    BT_COLD long long bars_exposed;
    BT_COLD int n_trades;
    BT_COLD int n_wins;
    BT_COLD double gross_profit;
    BT_COLD double gross_loss;
    BT_COLD double sum_trade_return;
    BT_COLD int losing_streak;
    BT_COLD int max_losing_streak;
    BT_COLD int n_liquidations;
    BT_COLD double liquidation_loss;
    BT_COLD int ambiguous_bars;
    BT_COLD int magnified_bars;
    // Note [Period statistics]: the current period's running values, and
    // where each finished period goes (null with n_periods 0).
    // Not cold: a kernel that passes a literal null folds n_periods to 0 and
    // drops the period code (Note [Two kernels per strategy]).
    PeriodStatistics* periods;
    int n_periods;
    BT_COLD int n_bars;
    BT_COLD int period;             // the current one
    BT_COLD long long period_end;   // n_returns after its last bar
    BT_COLD double period_sum;
    BT_COLD double period_sum_squares;
    BT_COLD double period_downside;
    BT_COLD double period_sum_cubes;
    BT_COLD double period_sum_fourths;
    BT_COLD double period_start_equity;
    BT_COLD double period_peak;
    BT_COLD double period_max_drawdown;
    BT_COLD double period_gross_profit;
    BT_COLD double period_gross_loss;
    BT_COLD double period_fees_before;     // the account's totals when the period began
    BT_COLD double period_funding_before;
    BT_COLD int period_trades;
    BT_COLD int period_wins;
    // Note [Equity marks]: where the next mark goes and after which bar.
    BT_COLD int equity_marks;
    BT_COLD int mark;
    // n_returns after the last bar of part `mark`; kMarksAtUtcDays: the
    // parts are the window's UTC days (Note [Equity marks at UTC days]).
    BT_COLD long long mark_end;
};

// MetricsAccumulator::mark_end of daily equity marks (Note [Equity marks at UTC days]).
BT_KERNEL inline constexpr long long kMarksAtUtcDays = -1;

// The number of bars before period p's first (Note [Period statistics]).
BT_KERNEL inline long long period_first_bar(int p, int n_bars, int n_periods) {
    return static_cast<long long>(p) * n_bars / n_periods;
}

BT_KERNEL inline void period_begin(MetricsAccumulator& acc, double start_equity, double fees, double funding) {
    acc.period_end = acc.n_periods != 0 ? period_first_bar(acc.period + 1, acc.n_bars, acc.n_periods) : 0;
    acc.period_sum = 0.0;
    acc.period_sum_squares = 0.0;
    acc.period_downside = 0.0;
    acc.period_sum_cubes = 0.0;
    acc.period_sum_fourths = 0.0;
    acc.period_start_equity = start_equity;
    acc.period_peak = start_equity;
    acc.period_max_drawdown = 0.0;
    acc.period_gross_profit = 0.0;
    acc.period_gross_loss = 0.0;
    acc.period_fees_before = fees;
    acc.period_funding_before = funding;
    acc.period_trades = 0;
    acc.period_wins = 0;
}

// `periods` receives config.n_periods PeriodStatistics of a run of n_bars
// bars (Note [Period statistics]); null, or n_periods 0: none are kept.
// `equity_marks` is config.equity_marks (Note [Equity marks]), `daily_marks`
// config.daily_equity_marks (Note [Equity marks at UTC days]).
BT_KERNEL inline void metrics_begin(MetricsAccumulator& acc, double initial_equity, int n_bars, int n_periods,
                                    PeriodStatistics* periods, int equity_marks, int daily_marks) {
    acc.initial_equity = initial_equity;
    acc.prev_equity = initial_equity;
    acc.peak_equity = initial_equity;
    acc.max_drawdown = 0.0;
    acc.n_returns = 0;
    acc.mean_return = 0.0;
    acc.m2_return = 0.0;
    acc.sum_sq_downside = 0.0;
    acc.bars_exposed = 0;
    acc.n_trades = 0;
    acc.n_wins = 0;
    acc.gross_profit = 0.0;
    acc.gross_loss = 0.0;
    acc.sum_trade_return = 0.0;
    acc.losing_streak = 0;
    acc.max_losing_streak = 0;
    acc.n_liquidations = 0;
    acc.liquidation_loss = 0.0;
    acc.ambiguous_bars = 0;
    acc.magnified_bars = 0;
    acc.periods = periods;
    acc.n_periods = periods != nullptr && n_bars > 0 ? n_periods : 0;
    acc.n_bars = n_bars;
    acc.period = 0;
    period_begin(acc, initial_equity, 0.0, 0.0);  // with no periods: only sets the fields
    acc.equity_marks = n_bars > 0 && equity_marks > 0 ? equity_marks : 0;
    acc.mark = 0;
    acc.mark_end = acc.equity_marks == 0 ? 0
                   : daily_marks != 0    ? kMarksAtUtcDays
                                         : period_first_bar(1, n_bars, acc.equity_marks);
}

// Note [Equity marks]
// An equity curve (the `equity_curve` of every strategy's run function) can
// be kept at a coarser resolution than the bars: with config.equity_marks =
// M > 0 it receives M values, the close-marked equity after the last bar of
// each of M contiguous parts of the window, part i holding the bars
// [i * n / M, (i + 1) * n / M) as periods do (Note [Period statistics];
// 1 <= M <= n, which the host checks, so no part is empty); with M = 0, the
// equity after every bar (replay's curve). From the marks, part i's return
// is mark_i / mark_(i-1) - 1 (the initial equity before part 0), a return
// stream of M observations per combination for the tests that resample
// returns (Note [Reality Check, SPA and StepM]), written by the kernels
// with no bars x combinations array. A kernel that passes a literal null
// curve drops all of it. With daily marks (mark_end kMarksAtUtcDays) the M
// parts are the window's UTC days instead (Note [Equity marks at UTC days]):
// a mark goes after each bar that `ends_day` says ends one, M being the days
// the host counted.
BT_KERNEL inline void metrics_mark_equity(MetricsAccumulator& acc, double* equity_curve, int t, double equity,
                                          int ends_day) {
    if (acc.equity_marks == 0) {
        equity_curve[t] = equity;
    } else if (acc.mark_end == kMarksAtUtcDays) {
        if (ends_day != 0 && acc.mark < acc.equity_marks) {
            equity_curve[acc.mark] = equity;
            acc.mark += 1;
        }
    } else if (acc.n_returns == acc.mark_end) {
        equity_curve[acc.mark] = equity;
        acc.mark += 1;
        acc.mark_end = period_first_bar(acc.mark + 1, acc.n_bars, acc.equity_marks);
    }
}

// A fall from `peak` to `equity` as a fraction of the peak, kept in `record`
// when larger: the one drawdown rule of the window and of its periods.
// Note [Drawdowns that cannot set a record]
BT_KERNEL inline void record_drawdown(double peak, double equity, double& record) {
    if (peak > 0.0 && equity < peak) {
        double fall = peak - equity;
        double record_fall = record * peak;
        if (!(record_fall >= 0x1p-1000 && record_fall <= 0x1p1000) || fall > record_fall * (1.0 - 0x1p-51)) {
            double dd = fall / peak;
            if (dd > record) record = dd;
        }
    }
}

// After the last bar of the current period: write it out, start the next.
BT_KERNEL inline void period_finish(MetricsAccumulator& acc, double equity, double fees, double funding) {
    PeriodStatistics& out = acc.periods[acc.period];
    out.return_sum = acc.period_sum;
    out.return_sum_squares = acc.period_sum_squares;
    out.downside_sum_squares = acc.period_downside;
    out.return_sum_cubes = acc.period_sum_cubes;
    out.return_sum_fourths = acc.period_sum_fourths;
    out.start_equity = acc.period_start_equity;
    out.end_equity = equity;
    out.max_drawdown = acc.period_max_drawdown;
    out.gross_profit = acc.period_gross_profit;
    out.gross_loss = acc.period_gross_loss;
    out.fees = fees - acc.period_fees_before;
    out.funding = funding - acc.period_funding_before;
    out.bars = static_cast<int>(acc.period_end - period_first_bar(acc.period, acc.n_bars, acc.n_periods));
    out.trades = acc.period_trades;
    out.wins = acc.period_wins;
    out.reserved = 0;
    acc.period += 1;
    if (acc.period < acc.n_periods) period_begin(acc, equity, fees, funding);
}

// Note [Drawdowns that cannot set a record]
// Most bars below the peak are not a new maximum drawdown, and the division
// fall / peak is skipped on those where that is certain, with the same bits:
// record_fall = max_drawdown * peak, rounded, is within a relative 2^-53 of
// the exact product while it is a normal number; shrunk by 2^-51 and rounded
// again it is below the exact product. So fall <= that value implies
// fall / peak < max_drawdown exactly, hence the rounded quotient is at most
// max_drawdown (rounding is monotone and max_drawdown is a double) and would
// not replace it. Outside [2^-1000, 2^1000] (a zero record included), or
// with a NaN, the division runs as before.

// Called once per bar with the equity marked at its close and the account's
// running fees and funding (for Note [Period statistics]).
BT_KERNEL inline void metrics_on_bar_close(MetricsAccumulator& acc, double equity, int has_position, double fees,
                                           double funding) {
    // A ruined account (equity <= 0) has no meaningful return: count 0.
    //
    // Note [Divisions skipped when their result is known]
    // On a bar where equity did not move, equity / prev_equity is exactly 1
    // and r exactly +0.0, so the division is skipped (x - y == 0 only when
    // x == y, and is NaN for inf - inf, which keeps that case on the
    // division). Likewise the drawdown of a bar at the peak is exactly +0.0,
    // never above max_drawdown (>= 0), so it is computed only below the
    // peak. Same bits, fewer FP64 divisions on the GPU, where they are long
    // dependent sequences.
    double r = 0.0;
    if (acc.prev_equity > 0.0 && equity - acc.prev_equity != 0.0) r = equity / acc.prev_equity - 1.0;
    acc.n_returns += 1;
    double delta = r - acc.mean_return;
    acc.mean_return += delta / static_cast<double>(acc.n_returns);
    acc.m2_return += delta * (r - acc.mean_return);
    if (r < 0.0) acc.sum_sq_downside += r * r;
    acc.prev_equity = equity;
    if (equity > acc.peak_equity) acc.peak_equity = equity;
    record_drawdown(acc.peak_equity, equity, acc.max_drawdown);
    if (has_position != 0) acc.bars_exposed += 1;
    if (acc.n_periods != 0) {
        double r2 = r * r;
        acc.period_sum += r;
        acc.period_sum_squares += r2;
        acc.period_sum_cubes += r2 * r;
        acc.period_sum_fourths += r2 * r2;
        if (r < 0.0) acc.period_downside += r2;
        if (equity > acc.period_peak) acc.period_peak = equity;
        double period_record = acc.period_max_drawdown;
        record_drawdown(acc.period_peak, equity, period_record);
        acc.period_max_drawdown = period_record;
        if (acc.n_returns == acc.period_end) period_finish(acc, equity, fees, funding);
    }
}

// Called when a round trip is fully closed, in close order.
BT_KERNEL inline void metrics_on_trade_closed(MetricsAccumulator& acc, double trade_pnl, double entry_notional) {
    acc.n_trades += 1;
    if (trade_pnl > 0.0) {
        acc.n_wins += 1;
        acc.gross_profit += trade_pnl;
    } else if (trade_pnl < 0.0) {
        acc.gross_loss -= trade_pnl;
    }
    if (entry_notional > 0.0) acc.sum_trade_return += trade_pnl / entry_notional;
    if (acc.n_periods != 0) {
        acc.period_trades += 1;
        if (trade_pnl > 0.0) {
            acc.period_wins += 1;
            acc.period_gross_profit += trade_pnl;
        } else if (trade_pnl < 0.0) {
            acc.period_gross_loss -= trade_pnl;
        }
    }
    if (trade_pnl < 0.0) {
        acc.losing_streak += 1;
        if (acc.losing_streak > acc.max_losing_streak) acc.max_losing_streak = acc.losing_streak;
    } else {
        acc.losing_streak = 0;
    }
}

// Called after metrics_on_trade_closed for a round trip that a liquidation
// ended, with the same net PnL.
BT_KERNEL inline void metrics_on_liquidation(MetricsAccumulator& acc, double trade_pnl) {
    acc.n_liquidations += 1;
    acc.liquidation_loss -= trade_pnl;
}

// A bar that Note [Ambiguous bars] calls ambiguous for one symbol's position
// or order.
BT_KERNEL inline void metrics_on_ambiguous_bar(MetricsAccumulator& acc) { acc.ambiguous_bars += 1; }

// A bar of one symbol's position settled on its finer bars (Note [Finer bars]).
BT_KERNEL inline void metrics_on_magnified_bar(MetricsAccumulator& acc) { acc.magnified_bars += 1; }

BT_KERNEL inline void metrics_finish(const MetricsAccumulator& acc, double final_equity, double fees_paid,
                                     double funding_paid, double bars_per_year, Metrics& out) {
    out.final_equity = final_equity;
    out.net_pnl = final_equity - acc.initial_equity;
    out.total_return = final_equity / acc.initial_equity - 1.0;
    out.gross_profit = acc.gross_profit;
    out.gross_loss = acc.gross_loss;
    out.fees_paid = fees_paid;
    out.funding_paid = funding_paid;
    out.n_trades = acc.n_trades;
    out.n_wins = acc.n_wins;
    out.win_rate = acc.n_trades > 0 ? static_cast<double>(acc.n_wins) / static_cast<double>(acc.n_trades) : 0.0;
    if (acc.gross_loss > 0.0) {
        out.profit_factor = acc.gross_profit / acc.gross_loss;
    } else {
        out.profit_factor = acc.gross_profit > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
    }
    out.max_drawdown = acc.max_drawdown;
    double n = static_cast<double>(acc.n_returns);
    double annual = std::sqrt(bars_per_year);
    double std_return = acc.n_returns > 0 ? std::sqrt(acc.m2_return / n) : 0.0;
    double downside = acc.n_returns > 0 ? std::sqrt(acc.sum_sq_downside / n) : 0.0;
    out.sharpe = std_return > 0.0 ? acc.mean_return / std_return * annual : 0.0;
    out.sortino = downside > 0.0 ? acc.mean_return / downside * annual : 0.0;
    double annual_return = acc.n_returns > 0 ? out.total_return * bars_per_year / n : 0.0;
    out.calmar = acc.max_drawdown > 0.0 ? annual_return / acc.max_drawdown : 0.0;
    out.exposure = acc.n_returns > 0 ? static_cast<double>(acc.bars_exposed) / n : 0.0;
    out.avg_trade_return = acc.n_trades > 0 ? acc.sum_trade_return / static_cast<double>(acc.n_trades) : 0.0;
    out.max_consecutive_losses = acc.max_losing_streak;
    out.n_liquidations = acc.n_liquidations;
    out.liquidation_loss = acc.liquidation_loss;
    out.ambiguous_bars = acc.ambiguous_bars;
    out.magnified_bars = acc.magnified_bars;
}

}  // namespace btforge
