#pragma once

#include <cmath>

#include "reference/accounting/fee_model.h"
#include "reference/accounting/holding.h"
#include "reference/exits/ambiguous_bar.h"
#include "reference/exits/cooldown.h"
#include "reference/exits/trailing_stop.h"
#include "reference/kernel_marker.h"
#include "reference/market/bar_legs.h"
#include "reference/market/mark_price.h"
#include "reference/market/market_view.h"
#include "reference/market/symbol_set.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/bar_close.h"
#include "reference/portfolio/fill_log.h"
#include "reference/portfolio/portfolio.h"
#include "reference/portfolio/position_fills.h"
#include "reference/portfolio/settle_funding.h"
#include "reference/strategies/default/bar_exits.h"
#include "reference/strategies/default/entry_fill.h"
#include "reference/strategies/default/params.h"
#include "reference/strategies/default/position.h"
#include "reference/strategies/default/signals.h"

namespace btforge {

// Note [Bar order of the default strategy]
// SPEC §6, per bar t and per symbol in index order:
//   1. pending exits, then pending entries, fill at open[t] (taker);
//   2. funding for every funding time the bar settles;
//   3. exits inside the bar (liquidation or stop, whichever the price
//      reaches first (Note [Liquidation rule]) > TP1 > TP);
//   4. trailing, acting from the next bar;
// then, at the close, per symbol: the max_hold_bars exit and the signals
// (5), and the portfolio is marked to market (6). A symbol that has no bar at
// t (not tradable) does nothing at t; its pending orders wait for its next bar.
// At the last bar every position is closed at the close before the mark.

// Symbols holding a position or waiting on an entry; only busy ones can
// (Note [Busy symbols]). The register kernel (one word) counts over every
// symbol: on the large benchmark the visit of `busy` measured 3% slower
// there (docs/PERFORMANCE.md, "Universes"); with hundreds of symbols the
// visit is what keeps an entry's cost from growing with the universe. Both
// count the same.
BT_KERNEL inline int open_and_pending_count(const Portfolio& portfolio, const DefaultSymbolState* states,
                                            const SymbolSet& busy) {
    int count = 0;
    if (kSymbolWords == 1) {
        for (int s = 0; s < portfolio.n_symbols; ++s) {
            if (portfolio.holdings[s].side != 0 || states[s].pending_entry != 0) count += 1;
        }
    } else {
        for (int w = 0; w < symbol_words(portfolio.n_symbols); ++w) {
            for (int b = 0; symbol_members_from(busy.words[w], b) != 0; ++b) {
                int s = w * kSymbolWordBits + b;
                if (((busy.words[w] >> b) & 1u) == 0u) continue;
                if (portfolio.holdings[s].side != 0 || states[s].pending_entry != 0) count += 1;
            }
        }
    }
    return count;
}

// At the last bar every open position is closed at its close; the held
// close of a symbol without a bar there is its last price.
BT_KERNEL inline void close_at_end_of_data(Portfolio& pf, DefaultSymbolState* states, MetricsAccumulator& metrics,
                                           FillLog* log, const AccountConfig& config, const MarketView& m, int t) {
    for (int s = 0; s < m.n_symbols; ++s) {
        if (close_holding_at_end_of_data(pf, metrics, log, config, m, t, s, states[s].position.trade_index) != 0) {
            states[s].last_exit_bar = t;
        }
    }
}

// Note [Idle symbols]
// A symbol with nothing held and no order pending has nothing to do in steps
// 1-4. Its three flags are combined with `|`, not `||`, so that the GPU
// issues their loads (and that of `tradable`) together and waits once
// instead of four times in a row; most symbols are idle on most bars.

// Note [Busy symbols]
// Symbol s is in `busy` (Note [Symbol sets]) while it may hold a position
// or have an order pending; its absence proves that it has neither. Only a
// pending entry makes an idle symbol busy (a position opens from one, an
// exit order needs a position), and step 5 adds the symbol where it records
// one; step 1 removes it where it finds the symbol idle. Steps 1 and 6 visit
// busy symbols only, and step 5 those that are busy or may signal (Note
// [Signals that cannot fire]), so on most bars an idle symbol's state is not
// read at all: on the GPU those reads are local-memory loads that each warp
// waits for, and in a universe of hundreds of symbols the visits are a few
// words of zeros. Visiting the members in ascending order keeps the symbol
// order of every effect; a symbol that is skipped would have done nothing.
// A member that went idle costs one look in step 1 of the next bar.

// Runs one combination over the whole market. `equity_curve` (nullable)
// receives the close-marked equity of every bar; `log` (nullable) the fills.
BT_KERNEL inline void run_default_strategy(const MarketView& m, const DefaultSeries& series, const DefaultParams& p,
                                           const AccountConfig& config, Metrics& out, FillLog* log,
                                           double* equity_curve, PeriodStatistics* periods) {
    Portfolio pf;
    portfolio_begin(pf, config, m);
    DefaultSymbolState states[kMaxSymbols];
    for (int s = 0; s < m.n_symbols; ++s) {
        states[s].position.tp1_done = 0;
        states[s].position.trade_index = -1;
        states[s].pending_entry = 0;
        states[s].pending_atr = 0.0;
        states[s].pending_exit = 0;
        states[s].last_exit_bar = kNoExitYet;
    }
    MetricsAccumulator metrics;
    metrics_begin(metrics, config.initial_equity, m.n_bars, config.n_periods, periods, config.equity_marks,
                  config.daily_equity_marks);
    double equity_prev_close = config.initial_equity;
    int trades_started = 0;
    int last_bar = m.n_bars - 1;
    SymbolSet busy;  // Note [Busy symbols]
    symbol_set_clear(busy, m.n_symbols);

    for (int t = 0; t < m.n_bars; ++t) {
        for (int w = 0; w < symbol_words(m.n_symbols); ++w) {
            for (int b = 0; symbol_members_from(busy.words[w], b) != 0; ++b) {
                if (((busy.words[w] >> b) & 1u) == 0u) continue;
                int s = w * kSymbolWordBits + b;
                int i = market_index(m, s, t);
                DefaultSymbolState& st = states[s];
                BracketPosition& pos = st.position;
                Holding& holding = pf.holdings[s];
                // Note [Idle symbols]
                int idle = (st.pending_exit | st.pending_entry | holding.side) == 0;
                if (m.tradable[i] == 0 || idle) {
                    if (idle) symbol_set_remove(busy, s);
                    continue;
                }
                FillContext where = fill_context(t, s, pos.trade_index);
                // 1. Orders decided at the previous close.
                if (st.pending_exit != 0) {
                    st.pending_exit = 0;
                    if (holding.side != 0 &&
                        close_position(pf, metrics, log, config, where, holding.qty, m.open[i], kTaker, kSignalExit) != 0) {
                        st.last_exit_bar = t;
                    }
                }
                if (st.pending_entry != 0) {
                    double margin = portfolio_used_margin(pf, p.max_leverage);
                    trades_started += fill_pending_entry(st, pf, log, config, p, t, s, trades_started,
                                                         m.open[i], equity_prev_close, margin, m.qty_step[s],
                                                         m.min_qty[s], m.price_tick[s]);
                }
                if (holding.side == 0) continue;
                // 2. Funding.
                where.trade_index = pos.trade_index;
                settle_funding(pf.account, holding, log, where, m, i);
                // 3-4. Exits inside the bar, then trailing: on the bar's own prices, or on each of its `finer`
                // finer bars where it has them and needs them (Note [Walking the finer bars of a bracket]).
                int finer = m.fine_per_bar > 0 && (m.fine_legs != 0 || m.fine_path[i] != 0) &&
                                    bracket_bar_needs_path(pos, p, pf, busy, t, s, m.high[i], m.low[i], m.price_tick + s) != 0
                                ? m.fine_per_bar
                                : 0;
                if (finer > 0) metrics_on_magnified_bar(metrics);
                int closed = 0;
                for (int k = 0; k < (finer > 0 ? finer : 1) && closed == 0; ++k) {
                    FinerBarPrices bar_k = {m.open[i], m.high[i], m.low[i], m.open[i]};
                    if (finer > 0) bar_k = finer_bar_prices(m, i, k, holding.side);
                    double high_k = bar_k.high;
                    double low_k = bar_k.low;
                    // 3. Exits inside the (finer) bar; the ambiguous ones counted only on the bar's own prices.
                    closed = apply_bar_exits(st, pf, busy, metrics, log, config, p, t, s, bar_k.open,
                                             bar_k.target_open, high_k, low_k,
                                             m.qty_step + s, m.min_qty + s, m.price_tick + s,
                                             mark_prices(m, i, bar_k.open, high_k, low_k), finer == 0);
                    // 4. Trailing; the activation distance is a cold field: read only where trailing is on
                    // (Note [Cold fields]).
                    if (closed == 0 && p.trail_atr > 0.0) {
                        update_trailing_stop(holding.side, holding.entry_price, pos.entry_atr, p.trail_atr,
                                             p.trail_activate_atr, high_k, low_k, m.price_tick + s, pos.best_price,
                                             pos.stop);
                        // Note [Ambiguous bars], reading 2: the position came through step 3, so a stop the bar's
                        // range reaches is one this bar lifted (trailing, or TP1's break-even: apply_bar_exits
                        // leaves that one to this test when trailing is on).
                        if (finer == 0 && stop_touched(holding.side, pos.stop, high_k, low_k) != 0) {
                            metrics_on_ambiguous_bar(metrics);
                        }
                    }
                }
                if (closed != 0) {
                    st.last_exit_bar = t;
                    continue;
                }
                // A walked position is marked at the bar's adverse extreme for the positions after it, as the
                // bar's own prices would mark it (Note [Liquidation rule]).
                if (finer > 0) mark_cushion_at_extreme(pf, s, m.high[i], m.low[i]);
            }
        }

        // 5. At the close: the end of data at the last bar, else time exits and signals.
        if (t == last_bar) {
            close_at_end_of_data(pf, states, metrics, log, config, m, t);
        } else {
            SymbolSet may_signal = symbols_that_may_signal(m, series, p, t);
            SymbolSet visit = symbol_set_union(busy, may_signal, m.n_symbols);
            for (int w = 0; w < symbol_words(m.n_symbols); ++w) {
                for (int b = 0; symbol_members_from(visit.words[w], b) != 0; ++b) {
                    if (((visit.words[w] >> b) & 1u) == 0u) continue;
                    int s = w * kSymbolWordBits + b;
                    int i = market_index(m, s, t);
                    DefaultSymbolState& st = states[s];
                    BracketPosition& pos = st.position;
                    Holding& holding = pf.holdings[s];
                    FillContext where = fill_context(t, s, pos.trade_index);
                    if (m.tradable[i] == 0) continue;
                    if (holding.side != 0 && p.max_hold_bars > 0 && t - pos.entry_bar >= p.max_hold_bars) {
                        close_position(pf, metrics, log, config, where, holding.qty, m.close[i], kTaker, kMaxHold);
                        st.last_exit_bar = t;
                    }
                    // At t == 0 the "previous" index is the bar itself, so no crossover can fire.
                    int prev = t > 0 ? i - 1 : i;
                    int signal = ((may_signal.words[w] >> b) & 1u) != 0u ? entry_signal(series, p, i, prev, m.close[i]) : 0;
                    if (signal == 0) continue;
                    if (holding.side != 0) {
                        if (signal == -holding.side) st.pending_exit = 1;
                        continue;
                    }
                    if (st.pending_entry != 0) continue;
                    if (signal < 0 && p.allow_short == 0) continue;
                    if (in_cooldown(t, st.last_exit_bar, p.cooldown_bars) != 0) continue;  // Note [Cooldown]
                    if (open_and_pending_count(pf, states, busy) >= p.max_positions) continue;
                    double atr = series.atr[i];
                    if (std::isnan(atr) || atr <= 0.0) continue;
                    st.pending_entry = signal;
                    st.pending_atr = atr;
                    symbol_set_add(busy, s);
                }
            }
        }

        // 6. Mark to market.
        equity_prev_close = mark_bar_close(pf, metrics, m, t, busy, equity_curve);  // Note [The bar's close]
    }
    finish_run(pf, metrics, equity_prev_close, config, out);
}

}  // namespace btforge
