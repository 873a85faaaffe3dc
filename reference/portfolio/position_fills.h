#pragma once

#include "reference/accounting/fee_model.h"
#include "reference/accounting/fills.h"
#include "reference/accounting/holding.h"
#include "reference/kernel_marker.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/fill_log.h"

namespace btforge {

// Where a fill happens: shared by every fill helper so a log record and the
// accounting always describe the same event.
struct BT_KERNEL FillContext {
    int bar;
    int symbol;
    int trade_index;
};

BT_KERNEL inline FillContext fill_context(int bar, int symbol, int trade_index) {
    FillContext where;
    where.bar = bar;
    where.symbol = symbol;
    where.trade_index = trade_index;
    return where;
}

// Opens a holding at `fill_price` (slippage already applied by the caller,
// who also needed that price to size the order), paying the fee of `role`
// (a market or stop entry is a taker, a resting limit entry a maker:
// reference/orders/) and logged with `reason` (kEntry at the open,
// kRestingEntry inside the bar).
BT_KERNEL inline void open_position_by_role(Account& account, Holding& holding, FillLog* log,
                                            const AccountConfig& config, const FillContext& where, int side,
                                            double qty, double fill_price, FillRole role, int reason) {
    double fee = apply_open_fill(account, holding, side, qty, fill_price, fee_rate(config, role));
    FillRecord record;
    record.bar = where.bar;
    record.symbol = where.symbol;
    record.reason = reason;
    record.trade_dir = side;
    record.trade_index = where.trade_index;
    record.qty = qty;
    record.price = fill_price;
    record.fee = fee;
    record.realized_pnl = 0.0;
    record.cash_after = account.cash;
    log_fill(log, record);
}

// Opens a holding as a taker (a market entry at the open).
BT_KERNEL inline void open_position(Account& account, Holding& holding, FillLog* log, const AccountConfig& config,
                                    const FillContext& where, int side, double qty, double fill_price) {
    open_position_by_role(account, holding, log, config, where, side, qty, fill_price, kTaker, kEntry);
}

// Closes `qty` of a holding at the quoted price: slippage and fee by role,
// logged with its reason; when the holding becomes flat the round trip is
// handed to the metrics. Returns 1 when the holding is flat afterwards.
BT_KERNEL inline int close_position(Account& account, Holding& holding, MetricsAccumulator& metrics, FillLog* log,
                                    const AccountConfig& config, const FillContext& where, double qty,
                                    double quoted_price, FillRole role, int reason) {
    int trade_dir = -holding.side;
    double price = slipped_price(config, quoted_price, trade_dir, role);
    double entry_notional = holding.entry_notional;
    double fee = 0.0;
    double pnl = apply_close_fill(account, holding, qty, price, fee_rate(config, role), &fee);
    FillRecord record;
    record.bar = where.bar;
    record.symbol = where.symbol;
    record.reason = reason;
    record.trade_dir = trade_dir;
    record.trade_index = where.trade_index;
    record.qty = qty;
    record.price = price;
    record.fee = fee;
    record.realized_pnl = pnl;
    record.cash_after = account.cash;
    log_fill(log, record);
    if (holding.side != 0) return 0;
    metrics_on_trade_closed(metrics, holding.trade_pnl, entry_notional);
    return 1;
}

}  // namespace btforge
