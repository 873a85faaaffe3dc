#pragma once

#include "reference/accounting/quantize.h"
#include "reference/kernel_marker.h"

namespace btforge {

// Note [Partial close plan]
// A partial close takes `fraction` of the open quantity, floored to the
// instrument's qty_step. If what would remain is below min_qty the plan closes
// everything (an exchange would reject the dust); if the floored part itself is
// below min_qty the plan closes nothing (the order could not be placed).
struct BT_KERNEL PartialClosePlan {
    double close_qty;
    int closes_all;
};

BT_KERNEL inline PartialClosePlan build_partial_close_plan(double qty, double fraction, double qty_step,
                                                           double min_qty) {
    PartialClosePlan plan;
    plan.close_qty = fraction >= 1.0 ? qty : floor_to_step(qty * fraction, qty_step);
    plan.closes_all = 0;
    if (to_decimal_grid(qty - plan.close_qty) < min_qty) {
        plan.close_qty = qty;
        plan.closes_all = 1;
    } else if (plan.close_qty < min_qty) {
        plan.close_qty = 0.0;
    }
    return plan;
}

}  // namespace btforge
