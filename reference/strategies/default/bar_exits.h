#pragma once

#include "reference/accounting/fee_model.h"
#include "reference/kernel_marker.h"
#include "reference/market/symbol_set.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/portfolio.h"
#include "reference/portfolio/position_fills.h"
#include "reference/portfolio/stop_or_liquidation.h"
#include "reference/portfolio/target_exits.h"
#include "reference/strategies/default/params.h"
#include "reference/strategies/default/position.h"

namespace btforge {

// SPEC §6 step 3: at most one exit event per position and bar, in priority
// order liquidation or stop, whichever the price reaches first (Note [One
// stop exit for every strategy]) > partial target TP1 > final target TP
// (Note [Shared target exits]). TP1 closes tp1_frac (Note [Partial close
// plan]) and moves the stop to break-even; the new stop acts from the next
// bar. Returns 1 when the position was closed completely. The symbol's
// order rules are passed by address and read only for TP1 (as in
// update_trailing_stop).
BT_KERNEL inline int apply_bar_exits(DefaultSymbolState& state, Portfolio& pf, const SymbolSet& may_hold,
                                     MetricsAccumulator& metrics, FillLog* log, const AccountConfig& config,
                                     const DefaultParams& p, int bar, int symbol, double open_price, double high,
                                     double low, const double* qty_step, const double* min_qty) {
    BracketPosition& pos = state.position;
    FillContext where = fill_context(bar, symbol, pos.trade_index);
    // Note [One stop exit for every strategy]
    if (exit_at_stop_or_liquidation(pf, metrics, log, config, where, may_hold, pos.stop, open_price, open_price, high,
                                    low) != 0) {
        return 1;
    }
    // Note [Shared target exits]; tp1_frac is a cold field, read once TP1 is reached (Note [Cold fields]).
    if (pos.tp1_done == 0 && target_reached(pf.holdings[symbol].side, pos.tp1, high, low) != 0) {
        pos.tp1_done = 1;
        return take_partial_target(pf, metrics, log, config, where, pos.tp1, p.tp1_frac, open_price, qty_step,
                                   min_qty, pos.stop);
    }
    return exit_at_target(pf, metrics, log, config, where, pos.tp, open_price, high, low);
}

}  // namespace btforge
