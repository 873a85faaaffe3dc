#pragma once

// The band_reversion example: Bollinger bands with resting entry orders
// (reference/orders/), the third example strategy and the one that shows the
// guide's path end to end. Per symbol, at the close:
//   mode 0, fade: a close below the lower band rests a buy LIMIT
//     entry_atr_frac * ATR below the band (a close above the upper band, a
//     sell limit as far above it, when shorts are allowed): the entry waits
//     for the stretch to go further and buys it back cheaper, as a maker;
//   mode 1, breakout: a close above the upper band rests a buy STOP
//     entry_atr_frac * ATR above the band (below the lower band, a sell stop
//     below it): the entry waits for the break to carry on, as a taker.
// The order lives order_bars bars (Note [Resting entry orders]); a new
// signal while flat replaces it. A filled position has a stop sl_atr * ATR
// (of the signal bar) from its fill, evaluated from the fill on the fill's
// bar too (Note [A fill inside the bar meets its stop in that bar]); it
// exits at the next open once the close is back at the middle band (fade)
// or back inside it (breakout: the close crossing the middle band against
// the position). Each entry's notional is position_fraction of the equity
// marked at the previous close, at leverage max(1, position_fraction) (Note
// [Cross and isolated margin]); the shared liquidation rule comes before
// the stop where the price reaches it first (Note [Liquidation rule]).
//
// Note [Walking the finer bars of a stop entry]
// Where the market has finer bars (Note [Finer bars]), a bar on which a
// resting stop entry fills inside the bar (a buy stop above the open, a
// sell stop below it) is walked finer bar by finer bar, each a bar of its
// own: the order fills on the first finer bar that reaches it (at its
// price, or at that finer bar's open where it opens beyond it), and the
// position meets its stop and the liquidation on that finer bar from the
// fill (Note [A fill inside the bar meets its stop in that bar]) and on
// each finer bar after it from its open (a gap there fills at that open).
// Those are the bars reading 4 of Note [Ambiguous bars] comes from (a stop
// entry filled inside the bar, then taken out: the adverse extreme may have
// come before the fill); a bar where it fills and the stop is out of reach
// is walked too, as the path may fill the order at another price. Every
// other bar, a limit entry's among them (the limit and the stop beyond it
// lie on one side), is settled by its own prices, unchanged. A walked bar
// counts no ambiguous bar; a bar without a path (fine_path 0) is settled
// and counted as without finer bars. The walk ends at the fill where the
// rest of the bar can no longer close the position (Note [Out of reach for
// the rest of a bar]): most fills, whose stop the bar does not reach. The
// legs of a bar (Note [A bar as three legs]) are walked the same way, for
// the side of the order, but an entry filled on a leg does not meet its
// stop on that leg: a leg is straight, and after the fill it goes on away
// from the stop (a finer bar of the data may turn back, and the rule above
// takes that it did).

#include <cmath>

#include "reference/accounting/fee_model.h"
#include "reference/accounting/holding.h"
#include "reference/accounting/quantize.h"
#include "reference/exits/ambiguous_bar.h"
#include "reference/kernel_marker.h"
#include "reference/market/bar_legs.h"
#include "reference/market/mark_price.h"
#include "reference/market/market_view.h"
#include "reference/market/symbol_set.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/bar_close.h"
#include "reference/orders/resting_entry.h"
#include "reference/orders/resting_entry_fill.h"
#include "reference/portfolio/fill_log.h"
#include "reference/portfolio/portfolio.h"
#include "reference/portfolio/position_fills.h"
#include "reference/portfolio/stop_or_liquidation.h"
#include "reference/portfolio/settle_funding.h"

namespace btforge {

struct BT_KERNEL BandReversionParams {
    int bb_period;
    double bb_k;
    int atr_period;
    int mode;                  // 0 fade (limit entries), 1 breakout (stop entries)
    double entry_atr_frac;     // how far beyond the band the order rests, in ATR
    int order_bars;            // bars an unfilled order lives
    double sl_atr;             // stop distance from the fill, in ATR
    double position_fraction;  // notional of one entry, fraction of equity
    int allow_short;
};

struct BT_KERNEL BandReversionSeries {
    const double* bb_upper;
    const double* bb_middle;
    const double* bb_lower;
    const double* atr;
};

struct BT_KERNEL BandReversionSymbolState {
    RestingEntry order;
    double order_atr;  // the ATR of the bar that placed the order: sizes the stop
    double stop;
    int trade_index;
    int exit_pending;  // 1: close at the next open
};

// The entry order a close asks for: side (+1/-1, 0 none), kind and price.
struct BT_KERNEL BandReversionSignal {
    int side;
    int kind;
    double price;
};

BT_KERNEL inline BandReversionSignal band_reversion_signal(const BandReversionSeries& s, const BandReversionParams& p,
                                                           double close, int i, double tick) {
    BandReversionSignal signal;
    signal.side = 0;
    signal.kind = kNoEntryOrder;
    signal.price = 0.0;
    double upper = s.bb_upper[i];
    double lower = s.bb_lower[i];
    double atr = s.atr[i];
    if (std::isnan(upper) || std::isnan(lower) || std::isnan(atr)) return signal;
    double offset = p.entry_atr_frac * atr;
    if (p.mode == 0) {
        if (close < lower) {
            signal.side = 1;
            signal.price = round_to_tick(lower - offset, tick);
        } else if (close > upper && p.allow_short != 0) {
            signal.side = -1;
            signal.price = round_to_tick(upper + offset, tick);
        }
        signal.kind = kLimitEntry;
    } else {
        if (close > upper) {
            signal.side = 1;
            signal.price = round_to_tick(upper + offset, tick);
        } else if (close < lower && p.allow_short != 0) {
            signal.side = -1;
            signal.price = round_to_tick(lower - offset, tick);
        }
        signal.kind = kStopEntry;
    }
    if (signal.side == 0 || !(signal.price > 0.0)) signal.side = 0;
    return signal;
}

// Whether the close says to leave a position of `side` at the next open.
BT_KERNEL inline int band_reversion_exit(const BandReversionSeries& s, const BandReversionParams& p, int side,
                                         double close, int i) {
    double middle = s.bb_middle[i];
    if (std::isnan(middle)) return 0;
    double toward_middle = static_cast<double>(side) * (close - middle);  // < 0: still stretched away from it
    if (p.mode == 0) return toward_middle >= 0.0 ? 1 : 0;   // fade: back at the middle band
    return toward_middle <= 0.0 ? 1 : 0;                     // breakout: back inside, past the middle
}

// The position a fill of the resting entry opens, sized on the equity of
// the previous close, and its stop from the fill's quote; the order is
// spent either way, and fill.filled is set to 0 where the size rounds below
// the minimum (nothing traded).
BT_KERNEL inline void open_from_resting_entry(Portfolio& pf, FillLog* log, const AccountConfig& config,
                                              FillContext& where, BandReversionSymbolState& st,
                                              const BandReversionParams& p, const MarketView& m, int s,
                                              double equity_prev_close, int& trades_started, RestingEntryFill& fill) {
    int side = st.order.side;
    double qty = equity_prev_close > 0.0
                     ? floor_to_step(p.position_fraction * equity_prev_close / fill.price, m.qty_step[s])
                     : 0.0;
    if (qty >= m.min_qty[s]) {
        where.trade_index = trades_started;
        open_position_by_role(pf, log, config, where, side, qty, fill.price, std::fmax(1.0, p.position_fraction),
                              static_cast<FillRole>(fill.role), kRestingEntry);
        st.trade_index = trades_started;
        trades_started += 1;
        st.stop = round_to_tick(fill.quote - static_cast<double>(side) * p.sl_atr * st.order_atr, m.price_tick[s]);
    } else {
        fill.filled = 0;  // too small to trade: the order is spent all the same
    }
    cancel_resting_entry(st.order);
}

// Note [Walking the finer bars of a stop entry]: cell i's bar, on whose own
// prices the resting stop entry filled inside it, walked finer bar by finer
// bar. The path agrees with the bar (Note [Finer bars]; legs run through
// every price of it), so some finer bar reaches the order and spends it. A
// walked bar counts no ambiguous bar: its path decided it. Apart from the
// bar's prices, the fill and the stop are the steps of the bar loop, and
// the position is marked for cross margin as the bar's own prices mark it.
BT_KERNEL inline void walk_stop_entry_bar(Portfolio& pf, MetricsAccumulator& metrics, FillLog* log,
                                          const AccountConfig& config, FillContext& where,
                                          BandReversionSymbolState& st, const BandReversionParams& p,
                                          const MarketView& m, int s, int i, const SymbolSet& every_symbol,
                                          double equity_prev_close, int& trades_started) {
    Holding& holding = pf.holdings[s];
    metrics_on_magnified_bar(metrics);
    int order_side = st.order.side;
    for (int k = 0; k < m.fine_per_bar; ++k) {
        FinerBarPrices bar = finer_bar_prices(m, i, k, order_side);
        RestingEntryFill fill;
        fill.filled = 0;
        fill.price = 0.0;
        fill.quote = 0.0;
        fill.role = kTaker;
        if (holding.side == 0 && st.order.kind != kNoEntryOrder) {
            fill = try_fill_resting_entry(st.order, config, bar.open, bar.high, bar.low);
            if (fill.filled != 0) {
                open_from_resting_entry(pf, log, config, where, st, p, m, s, equity_prev_close, trades_started, fill);
                // Note [Out of reach for the rest of a bar]: then the finer bars left change nothing.
                if (holding.side != 0 &&
                    stop_and_liquidation_out_of_reach(pf, s, every_symbol, st.stop, m.high[i], m.low[i]) != 0) {
                    break;
                }
            }
        }
        // Flat with the order spent (filled too small to trade): nothing is left to happen in this bar.
        if (holding.side == 0 && st.order.kind == kNoEntryOrder) break;
        // A leg is straight: after a fill on it the price goes on away from the stop.
        if (holding.side == 0 || (m.fine_legs != 0 && fill.filled != 0)) continue;
        where.trade_index = st.trade_index;
        // Note [One stop exit for every strategy], on this finer bar from the fill or its open.
        double open_reference = stop_reference_open(fill, bar.open);
        if (exit_at_stop_or_liquidation(pf, metrics, log, config, where, every_symbol, st.stop, open_reference,
                                        bar.open, bar.high, bar.low,
                                        mark_prices(m, i, open_reference, bar.high, bar.low)) != 0) {
            return;
        }
    }
    // A walked position is marked at the bar's adverse extreme for the positions after it, as the bar's own
    // prices would mark it (Note [Liquidation rule]).
    if (holding.side != 0) mark_cushion_at_extreme(pf, s, m.high[i], m.low[i]);
}

BT_KERNEL inline void run_band_reversion_strategy(const MarketView& m, const BandReversionSeries& series,
                                                  const BandReversionParams& p, const AccountConfig& config,
                                                  Metrics& out, FillLog* log, double* equity_curve, PeriodStatistics* periods) {
    Portfolio pf;
    portfolio_begin(pf, config, m);
    SymbolSet every_symbol = symbol_set_of_first(m.n_symbols);  // what may hold: not tracked here
    BandReversionSymbolState states[kMaxSymbols];
    for (int s = 0; s < m.n_symbols; ++s) {
        cancel_resting_entry(states[s].order);
        states[s].order_atr = 0.0;
        states[s].stop = 0.0;
        states[s].trade_index = -1;
        states[s].exit_pending = 0;
    }
    MetricsAccumulator metrics;
    metrics_begin(metrics, config.initial_equity, m.n_bars, config.n_periods, periods, config.equity_marks,
                  config.daily_equity_marks);
    double equity_prev_close = config.initial_equity;
    int trades_started = 0;
    int last_bar = m.n_bars - 1;

    for (int t = 0; t < m.n_bars; ++t) {
        // Inside the bar: the exit decided at the last close, funding, the
        // resting order, then the stop.
        for (int s = 0; s < m.n_symbols; ++s) {
            int i = market_index(m, s, t);
            if (m.tradable[i] == 0) continue;
            BandReversionSymbolState& st = states[s];
            Holding& holding = pf.holdings[s];
            FillContext where = fill_context(t, s, st.trade_index);
            if (st.exit_pending != 0) {
                st.exit_pending = 0;
                if (holding.side != 0) {
                    close_position(pf, metrics, log, config, where, holding.qty, m.open[i], kTaker, kSignalExit);
                }
            }
            // Funding settles at the open, before a resting entry can fill:
            // a position it opens did not hold the bar's funding time.
            if (holding.side != 0) {
                settle_funding(pf.account, holding, log, where, m, i);
            }
            RestingEntryFill fill;
            fill.filled = 0;
            fill.price = 0.0;
            fill.quote = 0.0;
            fill.role = kTaker;
            if (holding.side == 0 && resting_entry_live(st.order, t) != 0) {
                fill = try_fill_resting_entry(st.order, config, m.open[i], m.high[i], m.low[i]);
                if (m.fine_per_bar > 0 && fill.filled != 0 && fill.role == kTaker && fill.quote != m.open[i] &&
                    (m.fine_legs != 0 || m.fine_path[i] != 0)) {
                    // A stop entry filled inside the bar: its path decides the fill and the exits (Note [Walking
                    // the finer bars of a stop entry]), and the order is spent on it.
                    walk_stop_entry_bar(pf, metrics, log, config, where, st, p, m, s, i, every_symbol,
                                        equity_prev_close, trades_started);
                    continue;
                }
                if (fill.filled != 0) {
                    open_from_resting_entry(pf, log, config, where, st, p, m, s, equity_prev_close, trades_started,
                                            fill);
                }
            }
            if (st.order.kind != kNoEntryOrder && t >= st.order.last_bar) cancel_resting_entry(st.order);
            if (holding.side == 0) continue;
            where.trade_index = st.trade_index;
            double open_reference = stop_reference_open(fill, m.open[i]);
            // Note [One stop exit for every strategy]: the liquidation where the price reaches it first, else the stop.
            int exited = exit_at_stop_or_liquidation(pf, metrics, log, config, where, every_symbol, st.stop,
                                                     open_reference, m.open[i], m.high[i], m.low[i],
                                                     mark_prices(m, i, open_reference, m.high[i], m.low[i]));
            // Note [Ambiguous bars], reading 4: a stop entry filled inside the bar, then taken out. The
            // reference is the fill's quote (else the open), and a stop entry's (a taker's) quote differs from
            // the open only when it filled inside the bar, on its favourable side; a limit's (a maker's) is on
            // the other side. Read from what the exit needs anyway: a flag of its own measured a register more.
            if (exited != 0 && fill.role == kTaker && open_reference != m.open[i]) {
                metrics_on_ambiguous_bar(metrics);
            }
        }

        // At the close: exits for the next open, new orders; everything
        // closes at the last bar.
        for (int s = 0; s < m.n_symbols; ++s) {
            int i = market_index(m, s, t);
            BandReversionSymbolState& st = states[s];
            Holding& holding = pf.holdings[s];
            if (t == last_bar) {
                cancel_resting_entry(st.order);
                close_holding_at_end_of_data(pf, metrics, log, config, m, t, s, st.trade_index);
                continue;
            }
            if (m.tradable[i] == 0) continue;
            if (holding.side != 0) {
                st.exit_pending = band_reversion_exit(series, p, holding.side, m.close[i], i);
                continue;
            }
            BandReversionSignal signal = band_reversion_signal(series, p, m.close[i], i, m.price_tick[s]);
            if (signal.side == 0) continue;
            place_resting_entry(st.order, signal.kind, signal.side, signal.price, t, p.order_bars);
            st.order_atr = series.atr[i];
        }

        equity_prev_close = mark_bar_close(pf, metrics, m, t, every_symbol, equity_curve);  // Note [The bar's close]
    }
    finish_run(pf, metrics, equity_prev_close, config, out);
}

}  // namespace btforge
