#pragma once

#include "reference/accounting/fee_model.h"
#include "reference/accounting/partial_close.h"
#include "reference/kernel_marker.h"
#include "reference/market/symbol_set.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/portfolio.h"
#include "reference/portfolio/position_fills.h"
#include "reference/portfolio/stop_or_liquidation.h"
#include "reference/strategies/default/params.h"
#include "reference/strategies/default/position.h"
#include "reference/exits/take_profit.h"

namespace btforge {

// SPEC §6 step 3: at most one exit event per position and bar, in priority
// order liquidation or stop, whichever the price reaches first (Note
// [Liquidation rule]; the stop by gap, then touch) > partial target TP1 >
// final target TP. TP1 closes tp1_frac (see Note [Partial close plan]) and
// moves the stop to break-even; the new stop acts from the next bar.
// Returns 1 when the position was closed completely. The symbol's order
// rules are passed by address and read only for TP1 (as in
// update_trailing_stop).
BT_KERNEL inline int apply_bar_exits(DefaultSymbolState& state, Portfolio& pf, const SymbolSet& may_hold,
                                     MetricsAccumulator& metrics, FillLog* log, const AccountConfig& config,
                                     const DefaultParams& p, int bar, int symbol, double open_price, double high,
                                     double low, const double* qty_step, const double* min_qty) {
    BracketPosition& pos = state.position;
    Holding& holding = pf.holdings[symbol];
    int side = holding.side;
    FillContext where = fill_context(bar, symbol, pos.trade_index);
    // Note [One stop exit for every strategy]
    if (exit_at_stop_or_liquidation(pf, metrics, log, config, where, may_hold, pos.stop, open_price, open_price, high,
                                    low) != 0) {
        return 1;
    }
    if (pos.tp1_done == 0 && target_reached(side, pos.tp1, high, low) != 0) {
        pos.tp1_done = 1;
        PartialClosePlan plan = build_partial_close_plan(holding.qty, p.tp1_frac, *qty_step, *min_qty);
        int closed = 0;
        if (plan.close_qty > 0.0) {
            closed = close_position(pf, metrics, log, config, where, plan.close_qty,
                                    target_fill_price(side, pos.tp1, open_price), kMaker, kPartialTarget);
        }
        if (closed == 0) pos.stop = holding.entry_price;
        return closed;
    }
    if (target_reached(side, pos.tp, high, low) != 0) {
        return close_position(pf, metrics, log, config, where, holding.qty, target_fill_price(side, pos.tp, open_price),
                              kMaker, kTarget);
    }
    return 0;
}

}  // namespace btforge
