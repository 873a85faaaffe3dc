#pragma once

#include <cmath>

#include "reference/accounting/fee_model.h"
#include "reference/kernel_marker.h"
#include "reference/orders/limit_entry_fill.h"
#include "reference/orders/resting_entry.h"
#include "reference/orders/stop_entry_fill.h"

namespace btforge {

// What a resting entry does on one bar (Note [Resting entry orders]).
struct BT_KERNEL RestingEntryFill {
    int filled;        // 1 when the bar reached the order
    double price;      // the fill, slippage included (the price to size and book at)
    double quote;      // the fill before slippage: the limit, the stop or the open
    int role;          // FillRole: kMaker for a limit, kTaker for a stop
};

// Note [A fill inside the bar meets its stop in that bar]
// After a resting entry fills on bar t, the strategy's stop is evaluated on
// bar t too, with the fill's quote in place of the open: the position cannot
// gap through its stop (it did not exist at the open), and the bar reaching
// the stop after the fill is the reading that never flatters the strategy.
// stop_reference_open() is the price that rule passes to evaluate_stop.
BT_KERNEL inline double stop_reference_open(const RestingEntryFill& fill, double open) {
    return fill.filled != 0 ? fill.quote : open;
}

// Looks at a live order on a bar: filled or not, at which price and role.
// The order is left as it is; the caller cancels it once filled or expired.
BT_KERNEL inline RestingEntryFill try_fill_resting_entry(const RestingEntry& order, const AccountConfig& config,
                                                         double open, double high, double low) {
    RestingEntryFill fill;
    fill.filled = 0;
    fill.price = 0.0;
    fill.quote = 0.0;
    fill.role = kTaker;
    double quote = order.kind == kLimitEntry ? limit_entry_fill_price(order.side, order.price, open, high, low)
                                             : stop_entry_fill_price(order.side, order.price, open, high, low);
    if (order.kind == kNoEntryOrder || std::isnan(quote)) return fill;
    fill.filled = 1;
    fill.quote = quote;
    fill.role = order.kind == kLimitEntry ? kMaker : kTaker;
    fill.price = slipped_price(config, quote, order.side, static_cast<FillRole>(fill.role));
    return fill;
}

}  // namespace btforge
