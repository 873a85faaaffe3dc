#pragma once

#include <cmath>

#include "reference/exits/stop_loss.h"
#include "reference/kernel_marker.h"
#include "reference/margin/liquidation_price.h"
#include "reference/margin/maintenance_margin.h"
#include "reference/margin/margin_schedule.h"

namespace btforge {

// Note [Liquidation rule]
// Inside a bar, after the fills at its open and the funding, before the
// strategy's own exits (Note [Bar order of the default strategy]), each open
// position is looked at once:
//   1. It is liquidated in the bar when its margin balance at the bar's
//      adverse extreme X (the low for a long, the high for a short) is at or
//      below its maintenance margin there:
//          B + side * Q * (X - EP) <= MM(Q * X),
//      B being what its margin mode puts behind it (Note [Liquidation
//      price]). In cross margin B is read at the position's turn in the bar
//      (symbols in index order): the cash as it is then, and every other open
//      position's unrealized PnL less its maintenance margin at its mark.
//      A position is marked at the adverse extreme of each bar it is looked
//      at on (in this step): the order of the symbols' moves inside a bar is
//      unknown, so the others see it at its worst price of its latest bar,
//      this bar's for the symbols before this one, the previous bar's for
//      those after it (a position opened in this bar counts from its own
//      turn on, as its fill comes there).
//   2. Gap-aware, like a stop (Note [Stop-loss rule]): when the condition
//      already holds at the open, the position is liquidated at the open (no
//      trade happened at the liquidation price); otherwise at the
//      liquidation price of Note [Liquidation price], kept inside the part of
//      the bar the condition brackets, [X, open] for a long, against rounding.
//   3. Against the strategy's stop, whichever the price reaches first from
//      the open wins: a liquidation at the open beats everything; a stop that
//      gapped at the open beats a liquidation inside the bar; with both inside
//      the bar, the level nearer the open (for a long the higher), the
//      liquidation on a tie (the exchange's engine takes the position before a
//      stop order would be matched). Targets come after both, as they come
//      after the stop, whatever the bar did first.
// A position filled inside the bar (a resting entry) uses its fill price as
// the open, as its stop does (Note [A fill inside the bar meets its stop in
// that bar]). The fill itself is Note [Liquidation fill]. Where the market
// carries a mark price, the prices of 1 and 2 are the mark's and the stop of
// 3 is shifted by the bar's basis (Note [Mark price]).
enum BT_KERNEL LiquidationOutcome : int { kNotLiquidated = 0, kLiquidated = 1, kLiquidatedAtOpen = 2 };

struct BT_KERNEL LiquidationCheck {
    int outcome;     // LiquidationOutcome
    double price;    // where the position is closed (the open, or the liquidation price)
    double balance;  // B of the condition: the fee's cap is taken from it (Note [Liquidation fill])
};

// The condition of Note [Liquidation rule] at `price`: 1 when B plus the
// position's unrealized PnL there (mark_to_market_pnl's arithmetic) is at or
// below its maintenance margin there.
BT_KERNEL inline int at_or_below_maintenance(int side, double qty, double entry_price, double balance,
                                             const MarginSchedule& schedule, double price) {
    double pnl = static_cast<double>(side) * (price - entry_price) * qty;
    return balance + pnl <= maintenance_margin(schedule, qty * price) ? 1 : 0;
}

// Step 2 of Note [Liquidation rule] for a position that step 1 found
// liquidated in the bar: at the open, or at its liquidation price.
BT_KERNEL inline LiquidationCheck locate_liquidation(int side, double qty, double entry_price, double balance,
                                                     const MarginSchedule& schedule, double open_price, double high,
                                                     double low) {
    LiquidationCheck check;
    check.balance = balance;
    if (at_or_below_maintenance(side, qty, entry_price, balance, schedule, open_price) != 0) {
        check.outcome = kLiquidatedAtOpen;
        check.price = open_price;
        return check;
    }
    double price = liquidation_price(side, qty, entry_price, balance, schedule);
    check.outcome = kLiquidated;
    check.price = side > 0 ? std::fmin(std::fmax(price, low), open_price) : std::fmax(std::fmin(price, high), open_price);
    return check;
}

// Steps 1 and 2 of Note [Liquidation rule] (the strategies' bar loops run
// them through liquidate_if_first, which also marks the position).
BT_KERNEL inline LiquidationCheck evaluate_liquidation(int side, double qty, double entry_price, double balance,
                                                       const MarginSchedule& schedule, double open_price, double high,
                                                       double low) {
    if (at_or_below_maintenance(side, qty, entry_price, balance, schedule, side > 0 ? low : high) == 0) {
        LiquidationCheck none;
        none.outcome = kNotLiquidated;
        none.price = 0.0;
        none.balance = balance;
        return none;
    }
    return locate_liquidation(side, qty, entry_price, balance, schedule, open_price, high, low);
}

// 1 when the liquidation takes the position before the stop (rule 3 of
// Note [Liquidation rule]); `stop_outcome` is evaluate_stop's for the same
// bar, kStopNotHit for a strategy without a stop.
BT_KERNEL inline int liquidation_comes_first(const LiquidationCheck& liquidation, int side, double stop,
                                             int stop_outcome) {
    if (liquidation.outcome == kNotLiquidated) return 0;
    if (liquidation.outcome == kLiquidatedAtOpen || stop_outcome == kStopNotHit) return 1;
    if (stop_outcome == kStopGapped) return 0;
    return side > 0 ? (liquidation.price >= stop ? 1 : 0) : (liquidation.price <= stop ? 1 : 0);
}

}  // namespace btforge
