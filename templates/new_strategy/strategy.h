#pragma once

// The {{name}} strategy, as `btforge-gen --new-strategy {{name}}` wrote it: a
// working skeleton to change (docs/WRITING_A_STRATEGY.md). Per symbol, the
// close crossing above its SMA goes long at the next open, crossing below
// goes short (or only exits when shorts are off); a fixed stop at stop_pct
// from the entry follows the shared gap-aware stop rule, after the shared
// liquidation rule where the price reaches that first (Note [Liquidation
// rule]); each entry's notional is position_fraction of the equity marked at
// the previous close, at leverage max(1, position_fraction) (Note [Cross and
// isolated margin]).
//
// The parameter struct has one field per parameter of spec/{{name}}.json, in
// its order (int for int and bool, double for double); the series struct one
// `const double*` per indicator id, in its order. btforge-gen checks both
// and writes the binding that fills them (generated/{{name}}_binding.cpp).

#include <cmath>

#include "reference/accounting/fee_model.h"
#include "reference/accounting/holding.h"
#include "reference/accounting/quantize.h"
#include "reference/kernel_marker.h"
#include "reference/market/mark_price.h"
#include "reference/market/market_view.h"
#include "reference/market/symbol_set.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/bar_close.h"
#include "reference/portfolio/fill_log.h"
#include "reference/portfolio/portfolio.h"
#include "reference/portfolio/position_fills.h"
#include "reference/portfolio/stop_or_liquidation.h"
#include "reference/portfolio/settle_funding.h"

namespace btforge {

struct BT_KERNEL {{type}}Params {
    int sma_period;
    double stop_pct;           // fixed stop distance, fraction of the entry price
    double position_fraction;  // notional of one entry, fraction of equity
    int allow_short;
};

struct BT_KERNEL {{type}}Series {
    const double* sma;  // SMA(close, sma_period)
};

struct BT_KERNEL {{type}}SymbolState {
    double stop;
    int trade_index;
    int pending;  // +1 / -1: be in this direction after the next open; 2: only exit
};

// +1 when the close crossed above the SMA at bar i (index of the previous
// bar: prev), -1 when it crossed below, 0 otherwise or while the SMA is NaN.
BT_KERNEL inline int {{name}}_signal(const MarketView& m, const {{type}}Series& s, int i, int prev) {
    double sma = s.sma[i];
    double sma_prev = s.sma[prev];
    if (std::isnan(sma) || std::isnan(sma_prev)) return 0;
    if (m.close[i] > sma && m.close[prev] <= sma_prev) return 1;
    if (m.close[i] < sma && m.close[prev] >= sma_prev) return -1;
    return 0;
}

BT_KERNEL inline void run_{{name}}_strategy(const MarketView& m, const {{type}}Series& series,
                                             const {{type}}Params& p, const AccountConfig& config, Metrics& out,
                                             FillLog* log, double* equity_curve, PeriodStatistics* periods) {
    Portfolio pf;
    portfolio_begin(pf, config, m);
    SymbolSet every_symbol = symbol_set_of_first(m.n_symbols);  // what may hold: not tracked here
    {{type}}SymbolState states[kMaxSymbols];
    for (int s = 0; s < m.n_symbols; ++s) {
        states[s].stop = 0.0;
        states[s].trade_index = -1;
        states[s].pending = 0;
    }
    MetricsAccumulator metrics;
    metrics_begin(metrics, config.initial_equity, m.n_bars, config.n_periods, periods, config.equity_marks,
                  config.daily_equity_marks);
    double equity_prev_close = config.initial_equity;
    int trades_started = 0;
    int last_bar = m.n_bars - 1;

    for (int t = 0; t < m.n_bars; ++t) {
        // At the open: orders decided at the previous close, funding, then
        // inside the bar a liquidation or the stop, whichever comes first.
        for (int s = 0; s < m.n_symbols; ++s) {
            int i = market_index(m, s, t);
            if (m.tradable[i] == 0) continue;
            {{type}}SymbolState& st = states[s];
            Holding& holding = pf.holdings[s];
            FillContext where = fill_context(t, s, st.trade_index);
            if (st.pending != 0) {
                int target = st.pending;
                st.pending = 0;
                if (holding.side != 0 && holding.side != target) {
                    close_position(pf, metrics, log, config, where, holding.qty, m.open[i], kTaker, kSignalExit);
                }
                if (target != 2 && holding.side == 0 && equity_prev_close > 0.0) {
                    double fill_price = slipped_price(config, m.open[i], target, kTaker);
                    double qty = floor_to_step(p.position_fraction * equity_prev_close / fill_price, m.qty_step[s]);
                    if (qty >= m.min_qty[s]) {
                        where.trade_index = trades_started;
                        open_position(pf, log, config, where, target, qty, fill_price,
                                      std::fmax(1.0, p.position_fraction));
                        st.trade_index = trades_started;
                        trades_started += 1;
                        st.stop = round_to_tick(fill_price * (1.0 - static_cast<double>(target) * p.stop_pct),
                                                m.price_tick[s]);
                    }
                }
            }
            if (holding.side == 0) continue;
            where.trade_index = st.trade_index;
            settle_funding(pf.account, holding, log, where, m, i);
            // Note [One stop exit for every strategy]: the liquidation where the price reaches it first, else the
            // stop; the liquidation reads the mark price where the market has one (Note [Mark price]).
            exit_at_stop_or_liquidation(pf, metrics, log, config, where, every_symbol, st.stop, m.open[i], m.open[i],
                                        m.high[i], m.low[i], mark_prices(m, i, m.open[i], m.high[i], m.low[i]));
        }

        // At the close: signals for the next open; everything closes at the
        // last bar.
        for (int s = 0; s < m.n_symbols; ++s) {
            int i = market_index(m, s, t);
            {{type}}SymbolState& st = states[s];
            Holding& holding = pf.holdings[s];
            if (t == last_bar) {
                close_holding_at_end_of_data(pf, metrics, log, config, m, t, s, st.trade_index);
                continue;
            }
            if (m.tradable[i] == 0) continue;
            int signal = {{name}}_signal(m, series, i, t > 0 ? i - 1 : i);
            if (signal == 0 || signal == holding.side) continue;
            st.pending = (signal < 0 && p.allow_short == 0) ? 2 : signal;
            if (st.pending == 2 && holding.side == 0) st.pending = 0;
        }

        equity_prev_close = mark_bar_close(pf, metrics, m, t, every_symbol, equity_curve);  // Note [The bar's close]
    }
    finish_run(pf, metrics, equity_prev_close, config, out);
}

}  // namespace btforge
