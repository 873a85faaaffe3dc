#pragma once

#include "reference/accounting/fee_model.h"
#include "reference/accounting/holding.h"
#include "reference/kernel_marker.h"
#include "reference/market/market_view.h"
#include "reference/market/symbol_set.h"
#include "reference/market/utc_days.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/fill_log.h"
#include "reference/portfolio/portfolio.h"
#include "reference/portfolio/position_fills.h"

namespace btforge {

// Note [The bar's close]
// Every strategy ends its bars the same way (SPEC §6, step 4 and the last
// bar), so the three phases are written once, here:
// - at the last bar each open holding is closed at that bar's close, as a
//   taker, logged as kEndOfData (close_holding_at_end_of_data; a symbol
//   without a bar there holds its last close, Note [Aligned market
//   layout]);
// - after the bar's fills, the equity is marked at the close (cash plus the
//   unrealized PnL of the holdings in `may_hold`, in symbol order), handed
//   to the metrics with the account's running fees and funding, and written
//   to the equity curve when one is asked for (mark_bar_close);
// - after the last bar, the metrics are finished with the last marked
//   equity (finish_run).
// A strategy keeps only what is its own: which symbols may hold, and the
// state it resets when a holding closes (a cooldown's exit bar).

// Closes symbol s's holding, if open, at the close of bar t (SPEC §6: at
// the last bar every position closes at the close). Returns 1 when it
// closed one.
BT_KERNEL inline int close_holding_at_end_of_data(Portfolio& pf, MetricsAccumulator& metrics, FillLog* log,
                                                  const AccountConfig& config, const MarketView& m, int t, int s,
                                                  int trade_index) {
    Holding& holding = pf.holdings[s];
    if (holding.side == 0) return 0;
    FillContext where = fill_context(t, s, trade_index);
    close_position(pf, metrics, log, config, where, holding.qty, m.close[market_index(m, s, t)], kTaker, kEndOfData);
    return 1;
}

// Marks bar t at its close (Note [The bar's close]) and returns the equity,
// which sizes the next bar's entries and, after the last bar, is final.
BT_KERNEL inline double mark_bar_close(const Portfolio& pf, MetricsAccumulator& metrics, const MarketView& m, int t,
                                       const SymbolSet& may_hold, double* equity_curve) {
    int has_position = 0;
    double equity = portfolio_equity_at_close(pf, m, t, may_hold, &has_position);
    metrics_on_bar_close(metrics, equity, has_position, pf.account.fees_paid, pf.account.funding_paid);
    if (equity_curve != nullptr) {
        // Note [Equity marks], Note [Equity marks at UTC days]
        int ends_day = metrics.mark_end == kMarksAtUtcDays && bar_ends_utc_day(m, t);
        metrics_mark_equity(metrics, equity_curve, t, equity, ends_day);
    }
    return equity;
}

// The run's metrics from the last marked equity (the initial equity when
// the market has no bars).
BT_KERNEL inline void finish_run(const Portfolio& pf, const MetricsAccumulator& metrics, double final_equity,
                                 const AccountConfig& config, Metrics& out) {
    metrics_finish(metrics, final_equity, pf.account.fees_paid, pf.account.funding_paid, config.bars_per_year, out);
}

}  // namespace btforge
