#pragma once

#include "reference/accounting/fee_model.h"
#include "reference/exits/ambiguous_bar.h"
#include "reference/exits/liquidation.h"
#include "reference/exits/trailing_stop.h"
#include "reference/kernel_marker.h"
#include "reference/market/mark_price.h"
#include "reference/market/symbol_set.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/portfolio.h"
#include "reference/portfolio/position_fills.h"
#include "reference/portfolio/stop_or_liquidation.h"
#include "reference/portfolio/target_exits.h"
#include "reference/strategies/default/params.h"
#include "reference/strategies/default/position.h"

namespace btforge {

// The stop the trailing rule would set at this bar's extreme from `stop`
// (Note [Trailing stop]), the position's own left as it is: Note [Ambiguous
// bars] asks where a favourable move of the bar could have lifted the stop.
// Called on the rare bars that exit, or that have finer bars, so the
// trailing distances (cold fields, Note [Cold fields]) are read only there.
BT_KERNEL inline double trailing_stop_at_extreme(const BracketPosition& pos, const DefaultParams& p, int side,
                                                 double entry_price, double stop, double high, double low,
                                                 const double* price_tick) {
    double best_price = pos.best_price;
    update_trailing_stop(side, entry_price, pos.entry_atr, p.trail_atr, p.trail_activate_atr, high, low, price_tick,
                         best_price, stop);
    return stop;
}

// Readings 1 and 3 of Note [Ambiguous bars] for a position that step 3
// closed: `adverse` 1, inside the bar at its stop or liquidation, where the
// bar also reached a target or lifted the trailing stop; `adverse` 0, at a
// target, where the trailing stop at the bar's extreme is within its range.
BT_KERNEL inline int bracket_exit_was_ambiguous(const BracketPosition& pos, const DefaultParams& p, int adverse,
                                                int side, double entry_price, double high, double low,
                                                const double* price_tick) {
    double lifted = trailing_stop_at_extreme(pos, p, side, entry_price, pos.stop, high, low, price_tick);
    if (adverse == 0) return stop_touched(side, lifted, high, low);
    return (pos.tp1_done == 0 && target_reached(side, pos.tp1, high, low) != 0) ||
                   target_reached(side, pos.tp, high, low) != 0 || lifted != pos.stop
               ? 1
               : 0;
}

// Note [Walking the finer bars of a bracket]
// Where the market has finer bars (Note [Finer bars]), steps 3 and 4 run on
// each finer bar of a bar in turn, each one a bar of their own (one exit at
// most, a moved stop acting from the next finer bar, a finer bar that opens
// through a level filling at its open), on the bars that need it: those
// where the bar reaches a favourable event (a target, or a move that lifts
// the stop: the trailing stop at the bar's extreme, TP1's break-even) and
// an adverse one (a stop, at its level or at any level this bar could lift
// it to, or the liquidation). Every bar Note [Ambiguous bars] counts is one
// of them, so on those the path decides. The others it names are gaps at
// the open, which the first finer bar settles as the bar itself would (it
// opens at the bar's open), and a TP1 that closes the whole position, which
// leaves first in either order (a finer bar that opens beyond it fills at
// that open). Every other bar is settled by its own four prices, unchanged.
// A walked bar counts no ambiguous bar: the path decided it; where a bar
// has no finer bars (fine_path 0) it is settled and counted as without
// any, so a row's ambiguous_bars are those our order rule still decided.
// The legs of a bar (Note [A bar as three legs]) are walked the same way,
// on the same bars.

// The tighter of two stops of a position on `side`: the one the price
// reaches first on its way against the position.
BT_KERNEL inline double tighter_stop(int side, double a, double b) {
    return side > 0 ? (a > b ? a : b) : (a < b ? a : b);
}

// Whether bar `bar` needs its finer bars (Note [Walking the finer bars of a
// bracket]) for the open position of `symbol`; `may_hold` as
// portfolio_margin_balance takes it. Read only where the bar has finer bars.
// Most bars reach no target and no new extreme; they are answered before
// the trailing stop's divisions and the margin check (Note [Trailing stop]:
// after the bar of the entry, whose step 4 set it, the stop is already at
// least where the best price so far puts it, so without a new extreme the
// bar cannot lift it; TP1's break-even is lifted again in its own bar).
BT_KERNEL inline int bracket_bar_needs_path(const BracketPosition& pos, const DefaultParams& p, const Portfolio& pf,
                                            const SymbolSet& may_hold, int bar, int symbol, double high, double low,
                                            const double* price_tick) {
    const Holding& holding = pf.holdings[symbol];
    int side = holding.side;
    int partial = pos.tp1_done == 0 && target_reached(side, pos.tp1, high, low) != 0 ? 1 : 0;
    int new_extreme = side > 0 ? (high > pos.best_price ? 1 : 0) : (low < pos.best_price ? 1 : 0);
    if (partial == 0 && target_reached(side, pos.tp, high, low) == 0 &&
        (p.trail_atr <= 0.0 || (new_extreme == 0 && bar != pos.entry_bar))) {
        return 0;
    }
    double lifted = trailing_stop_at_extreme(pos, p, side, holding.entry_price, pos.stop, high, low, price_tick);
    if (partial == 0 && target_reached(side, pos.tp, high, low) == 0 && lifted == pos.stop) return 0;
    double tightest = tighter_stop(side, pos.stop, lifted);
    if (partial != 0) {
        double break_even = holding.entry_price;
        tightest = tighter_stop(side, tightest, trailing_stop_at_extreme(pos, p, side, holding.entry_price, break_even,
                                                                         high, low, price_tick));
    }
    if (stop_touched(side, tightest, high, low) != 0) return 1;
    return at_or_below_maintenance(side, holding.qty, holding.entry_price,
                                   portfolio_margin_balance(pf, symbol, may_hold), pf.margin[symbol],
                                   side > 0 ? low : high);
}

// SPEC §6 step 3: at most one exit event per position and bar, in priority
// order liquidation or stop, whichever the price reaches first (Note [One
// stop exit for every strategy]) > partial target TP1 > final target TP
// (Note [Shared target exits]). TP1 closes tp1_frac (Note [Partial close
// plan]) and moves the stop to break-even; the new stop acts from the next
// bar. Returns 1 when the position was closed completely, and, where
// `count_ambiguous` (not on a finer bar), counts the bar when such an exit
// was ambiguous (Note [Ambiguous bars], readings 1 and 3, and 2 for the
// break-even stop without trailing; the caller reads 2 after the trailing
// stop). Targets fill at `target_open` where the bar opens beyond them: the
// open, except on a leg after the first (Note [A bar as three legs]). The
// symbol's order rules are
// passed by address and read only for TP1 and on those rare bars (as in
// update_trailing_stop).
BT_KERNEL inline int apply_bar_exits(DefaultSymbolState& state, Portfolio& pf, const SymbolSet& may_hold,
                                     MetricsAccumulator& metrics, FillLog* log, const AccountConfig& config,
                                     const DefaultParams& p, int bar, int symbol, double open_price,
                                     double target_open, double high, double low, const double* qty_step,
                                     const double* min_qty,
                                     const double* price_tick, const MarkPrices& mark, int count_ambiguous) {
    BracketPosition& pos = state.position;
    FillContext where = fill_context(bar, symbol, pos.trade_index);
    const Holding& holding = pf.holdings[symbol];
    int side = holding.side;
    // Note [One stop exit for every strategy]
    int closed = exit_at_stop_or_liquidation(pf, metrics, log, config, where, may_hold, pos.stop, open_price,
                                             open_price, high, low, mark);
    int adverse = closed;
    // Note [Shared target exits]; tp1_frac is a cold field, read once TP1 is reached (Note [Cold fields]).
    if (closed == 0) {
        if (pos.tp1_done == 0 && target_reached(side, pos.tp1, high, low) != 0) {
            pos.tp1_done = 1;
            closed = take_partial_target(pf, metrics, log, config, where, pos.tp1, p.tp1_frac, target_open, qty_step,
                                         min_qty, pos.stop);
            // Reading 2 for the break-even stop; with trailing on, step 4 reads it after the trailing stop's move.
            if (count_ambiguous != 0 && closed == 0 && p.trail_atr <= 0.0 && stop_touched(side, pos.stop, high, low) != 0) {
                metrics_on_ambiguous_bar(metrics);
            }
        } else {
            closed = exit_at_target(pf, metrics, log, config, where, pos.tp, target_open, high, low);
        }
    }
    // One test for every exit, so the counting's code is inlined once (two copies measured slower).
    if (count_ambiguous != 0 && closed != 0 && (adverse == 0 || pf.last_exit_inside != 0) &&
        bracket_exit_was_ambiguous(pos, p, adverse, side, holding.entry_price, high, low, price_tick) != 0) {
        metrics_on_ambiguous_bar(metrics);
    }
    return closed;
}

}  // namespace btforge
