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
//      price]). In cross margin B is read at the position's turn in the bar:
//      the cash as it is then, the other open positions at their last mark
//      (the previous close, or their fill price when they opened since).
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
// that bar]). The fill itself is Note [Liquidation fill].
enum BT_KERNEL LiquidationOutcome : int { kNotLiquidated = 0, kLiquidated = 1, kLiquidatedAtOpen = 2 };

struct BT_KERNEL LiquidationCheck {
    int outcome;     // LiquidationOutcome
    double price;    // where the position is closed (the open, or the liquidation price)
    double balance;  // B of the condition: the fee's cap is taken from it (Note [Liquidation fill])
};

// Step 1 of Note [Liquidation rule] alone: 1 when the position is
// liquidated somewhere in the bar. Every bar of every open position asks
// this; the rest of the rule runs only where it answers 1.
BT_KERNEL inline int liquidation_reached(int side, double qty, double entry_price, double balance,
                                         const MarginSchedule& schedule, double high, double low) {
    double adverse = side > 0 ? low : high;
    return balance + static_cast<double>(side) * qty * (adverse - entry_price) <=
                   maintenance_margin(schedule, qty * adverse)
               ? 1
               : 0;
}

BT_KERNEL inline LiquidationCheck evaluate_liquidation(int side, double qty, double entry_price, double balance,
                                                       const MarginSchedule& schedule, double open_price, double high,
                                                       double low) {
    LiquidationCheck check;
    check.outcome = kNotLiquidated;
    check.price = 0.0;
    check.balance = balance;
    double sided = static_cast<double>(side);
    if (liquidation_reached(side, qty, entry_price, balance, schedule, high, low) == 0) return check;
    if (balance + sided * qty * (open_price - entry_price) <= maintenance_margin(schedule, qty * open_price)) {
        check.outcome = kLiquidatedAtOpen;
        check.price = open_price;
        return check;
    }
    double price = liquidation_price(side, qty, entry_price, balance, schedule);
    check.outcome = kLiquidated;
    check.price = side > 0 ? std::fmin(std::fmax(price, low), open_price) : std::fmax(std::fmin(price, high), open_price);
    return check;
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
