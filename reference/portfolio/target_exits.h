#pragma once

#include "reference/accounting/fee_model.h"
#include "reference/accounting/partial_close.h"
#include "reference/exits/take_profit.h"
#include "reference/kernel_marker.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/fill_log.h"
#include "reference/portfolio/portfolio.h"
#include "reference/portfolio/position_fills.h"

namespace btforge {

// Note [Shared target exits]
// Targets are resting limit orders (Note [Target fills]): maker fills at the
// target, or at the open when the bar opens beyond it. A partial target
// closes `fraction` of the holding once (Note [Partial close plan]); where
// it leaves a position open, or could not be placed, the stop moves to
// break-even (the entry price) and acts from the next bar. A final target
// closes what is left. Written once so that every strategy with targets
// acts on them alike; inlined, as every step of the bar loop.

// The partial target of the open holding of where.symbol, which the bar
// reached (target_reached; the caller tests it and marks the target taken,
// so that `fraction`, often a cold field (Note [Cold fields]), is read only
// here): closes `fraction` of it at the target's fill price, or moves
// `stop` to break-even where the plan leaves it open or closes nothing.
// Returns 1 when the holding is flat afterwards. The symbol's order rules
// are passed by address and read only here.
BT_KERNEL inline int take_partial_target(Portfolio& pf, MetricsAccumulator& metrics, FillLog* log,
                                         const AccountConfig& config, const FillContext& where, double target,
                                         double fraction, double open_price, const double* qty_step,
                                         const double* min_qty, double& stop) {
    Holding& holding = pf.holdings[where.symbol];
    PartialClosePlan plan = build_partial_close_plan(holding.qty, fraction, *qty_step, *min_qty);
    int closed = 0;
    if (plan.close_qty > 0.0) {
        closed = close_position(pf, metrics, log, config, where, plan.close_qty,
                                target_fill_price(holding.side, target, open_price), kMaker, kPartialTarget);
    }
    if (closed == 0) stop = holding.entry_price;
    return closed;
}

// The final target of the open holding of where.symbol: returns 1 when the
// bar reached it and closed the holding, else 0.
BT_KERNEL inline int exit_at_target(Portfolio& pf, MetricsAccumulator& metrics, FillLog* log,
                                    const AccountConfig& config, const FillContext& where, double target,
                                    double open_price, double high, double low) {
    Holding& holding = pf.holdings[where.symbol];
    int side = holding.side;
    if (target_reached(side, target, high, low) == 0) return 0;
    return close_position(pf, metrics, log, config, where, holding.qty, target_fill_price(side, target, open_price),
                          kMaker, kTarget);
}

}  // namespace btforge
