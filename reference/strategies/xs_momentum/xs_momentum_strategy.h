#pragma once

// xs_momentum, the cross-sectional example: every rebalance_bars bars, at the
// close, the symbols are ranked by volatility-scaled momentum, ROC(close,
// roc_period) over ATR(atr_period) as a fraction of the close (Note
// [Cross-sectional ranking]); the top_k go long and the bottom top_k short
// (when shorts are allowed), each with the same risk: a quantity of
// risk_per_position of the equity per ATR of the symbol, capped at
// max_leverage * equity / (2 * top_k) of notional, so the book's gross stays
// within max_leverage. Orders fill at the next open as takers: a symbol
// that leaves its side is closed, one that takes a new side is opened, one
// that keeps its side keeps its position as it is (no resizing: a
// rebalance trades only what changed). A symbol without a bar at the
// rebalance, or whose indicators are not ready, is not ranked and keeps
// what it holds; an order waits for its symbol's next bar. One account pays
// funding and is margined as Note [Cross and isolated margin] says (each
// position opened at max_leverage); liquidations come first where they are
// reached (Note [Liquidation rule]); there is no stop.

#include <cmath>

#include "reference/accounting/fee_model.h"
#include "reference/accounting/holding.h"
#include "reference/accounting/quantize.h"
#include "reference/exits/stop_loss.h"
#include "reference/kernel_marker.h"
#include "reference/market/mark_price.h"
#include "reference/market/market_view.h"
#include "reference/market/symbol_set.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/bar_close.h"
#include "reference/portfolio/fill_log.h"
#include "reference/portfolio/portfolio.h"
#include "reference/portfolio/position_fills.h"
#include "reference/portfolio/settle_funding.h"

namespace btforge {

struct BT_KERNEL XsMomentumParams {
    int roc_period;            // momentum lookback, bars
    int atr_period;            // volatility lookback, bars
    int rebalance_bars;        // bars between rankings
    int top_k;                 // symbols long, and as many short
    double risk_per_position;  // equity fraction per ATR of adverse move, each position
    double max_leverage;       // gross notional cap (over equity); each position's leverage
    int allow_short;
};

struct BT_KERNEL XsMomentumSeries {
    const double* roc;  // ROC(close, roc_period), percent
    const double* atr;  // ATR(atr_period), price units
};

struct BT_KERNEL XsMomentumSymbolState {
    int pending;          // 1: an order decided at a rebalance waits for the next open
    int target;           // its side: +1 long, -1 short, 0 flat
    double decision_atr;  // the ATR of the rebalance bar: sizes the entry
    int trade_index;
};

// Note [Cross-sectional ranking]
// A symbol takes part in a rebalance when it has a bar there and its ROC and
// ATR are numbers with ATR > 0; its score is ROC * close / ATR (the percent
// move of roc_period bars over the ATR as a fraction of the price, so a calm
// symbol's move counts for more). Symbols are ordered by score, highest
// first; equal scores by symbol index, lowest first, so the order never
// depends on anything but the numbers. With e symbols ranked, the first
// min(top_k, e / 2) go long and as many of the last go short: the two sets
// never overlap. The sort is a bottom-up merge sort of the ranked symbols,
// gathered in index order, into fixed arrays of kMaxSymbols entries: device
// code, no recursion, and stable (a merge takes the left run's entry unless
// the right one's score is strictly higher), which is what breaks ties by
// index. It costs e log2(e) moves a rebalance, where the insertion sort it
// replaced cost up to e^2 / 2: at 300 symbols that made the ranking most of
// the strategy's time (docs/PERFORMANCE.md, "Universes").
// Returns e; order[0 .. e) are the ranked symbols.
BT_KERNEL inline int rank_by_momentum(const MarketView& m, const XsMomentumSeries& series, int t, int* order) {
    double scores[kMaxSymbols];
    int ranked = 0;
    for (int s = 0; s < m.n_symbols; ++s) {
        int i = market_index(m, s, t);
        double roc = series.roc[i];
        double atr = series.atr[i];
        if (m.tradable[i] == 0 || std::isnan(roc) || !(atr > 0.0)) continue;
        scores[ranked] = roc * m.close[i] / atr;
        order[ranked] = s;
        ranked += 1;
    }
    double merged_scores[kMaxSymbols];
    int merged_order[kMaxSymbols];
    for (int width = 1; width < ranked; width *= 2) {
        for (int low = 0; low < ranked; low += 2 * width) {
            int middle = low + width < ranked ? low + width : ranked;
            int high = low + 2 * width < ranked ? low + 2 * width : ranked;
            int left = low;
            int right = middle;
            for (int k = low; k < high; ++k) {
                if (right >= high || (left < middle && !(scores[left] < scores[right]))) {
                    merged_scores[k] = scores[left];
                    merged_order[k] = order[left];
                    left += 1;
                } else {
                    merged_scores[k] = scores[right];
                    merged_order[k] = order[right];
                    right += 1;
                }
            }
        }
        for (int k = 0; k < ranked; ++k) {
            scores[k] = merged_scores[k];
            order[k] = merged_order[k];
        }
    }
    return ranked;
}

BT_KERNEL inline void run_xs_momentum_strategy(const MarketView& m, const XsMomentumSeries& series,
                                               const XsMomentumParams& p, const AccountConfig& config, Metrics& out,
                                               FillLog* log, double* equity_curve, PeriodStatistics* periods) {
    Portfolio pf;
    portfolio_begin(pf, config, m);
    // The symbols holding a position: what the margin balance and the mark
    // visit, so that their cost follows the positions, not the universe. And
    // those holding one or with an order waiting: the only ones the open
    // visits (a symbol with neither does nothing there), as Note [Busy
    // symbols] of the default strategy does; with hundreds of symbols and a
    // few held, the others' state is not read on most bars.
    SymbolSet held;
    symbol_set_clear(held, m.n_symbols);
    SymbolSet busy;
    symbol_set_clear(busy, m.n_symbols);
    XsMomentumSymbolState states[kMaxSymbols];
    for (int s = 0; s < m.n_symbols; ++s) {
        states[s].pending = 0;
        states[s].target = 0;
        states[s].decision_atr = 0.0;
        states[s].trade_index = -1;
    }
    MetricsAccumulator metrics;
    metrics_begin(metrics, config.initial_equity, m.n_bars, config.n_periods, periods, config.equity_marks,
                  config.daily_equity_marks);
    double equity_prev_close = config.initial_equity;
    int trades_started = 0;
    int last_bar = m.n_bars - 1;
    double notional_cap = p.max_leverage / (2.0 * static_cast<double>(p.top_k));  // of equity, per position

    for (int t = 0; t < m.n_bars; ++t) {
        // At the open: the orders of the last rebalance, funding, then a
        // liquidation inside the bar.
        for (int w = 0; w < symbol_words(m.n_symbols); ++w) {
            for (int b = 0; symbol_members_from(busy.words[w], b) != 0; ++b) {
                if (((busy.words[w] >> b) & 1u) == 0u) continue;
                int s = w * kSymbolWordBits + b;
                int i = market_index(m, s, t);
                if (m.tradable[i] == 0) continue;
                XsMomentumSymbolState& st = states[s];
                Holding& holding = pf.holdings[s];
                FillContext where = fill_context(t, s, st.trade_index);
                if (st.pending != 0) {
                    st.pending = 0;
                    if (holding.side != 0 && holding.side != st.target) {
                        close_position(pf, metrics, log, config, where, holding.qty, m.open[i], kTaker, kSignalExit);
                    }
                    if (st.target != 0 && holding.side == 0 && equity_prev_close > 0.0) {
                        double fill_price = slipped_price(config, m.open[i], st.target, kTaker);
                        double risk_qty = equity_prev_close * p.risk_per_position / st.decision_atr;
                        double cap_qty = notional_cap * equity_prev_close / fill_price;
                        double qty = floor_to_step(std::fmin(risk_qty, cap_qty), m.qty_step[s]);
                        if (qty >= m.min_qty[s]) {
                            where.trade_index = trades_started;
                            open_position(pf, log, config, where, st.target, qty, fill_price, p.max_leverage);
                            symbol_set_add(held, s);
                            st.trade_index = trades_started;
                            trades_started += 1;
                        }
                    }
                }
                if (holding.side == 0) {
                    symbol_set_remove(held, s);
                    symbol_set_remove(busy, s);
                    continue;
                }
                where.trade_index = st.trade_index;
                settle_funding(pf.account, holding, log, where, m, i);
                if (liquidate_if_first(pf, metrics, log, where, held,
                                       mark_prices(m, i, m.open[i], m.high[i], m.low[i]), 0.0, kStopNotHit) != 0) {
                    symbol_set_remove(held, s);
                }
            }
        }

        // At the close: everything closes at the last bar; every
        // rebalance_bars bars, the ranking sets the targets.
        if (t == last_bar) {
            for (int s = 0; s < m.n_symbols; ++s) {
                close_holding_at_end_of_data(pf, metrics, log, config, m, t, s, states[s].trade_index);
            }
        } else if ((t + 1) % p.rebalance_bars == 0) {
            int order[kMaxSymbols];
            int ranked = rank_by_momentum(m, series, t, order);
            int k = p.top_k < ranked / 2 ? p.top_k : ranked / 2;
            for (int r = 0; r < ranked; ++r) {
                int s = order[r];
                int target = r < k ? 1 : (r >= ranked - k && p.allow_short != 0 ? -1 : 0);
                XsMomentumSymbolState& st = states[s];
                st.pending = target != pf.holdings[s].side ? 1 : 0;
                if (st.pending != 0) symbol_set_add(busy, s);
                st.target = target;
                st.decision_atr = series.atr[market_index(m, s, t)];
            }
        }

        equity_prev_close = mark_bar_close(pf, metrics, m, t, held, equity_curve);  // Note [The bar's close]
    }
    finish_run(pf, metrics, equity_prev_close, config, out);
}

}  // namespace btforge
