#pragma once

#include "reference/accounting/fee_model.h"
#include "reference/accounting/holding.h"
#include "reference/accounting/quantize.h"
#include "reference/kernel_marker.h"

namespace btforge {

// Opens (or adds to) a holding at `price`; the fee leaves the cash at once.
// The fill posts qty * price / leverage of margin (Note [Cross and isolated
// margin]). Returns the fee.
BT_KERNEL inline double apply_open_fill(Account& account, Holding& holding, int side, double qty, double price,
                                        double rate, double leverage) {
    double fee = quantize(qty * price * rate);
    double posted = qty * price / leverage;
    if (holding.side == 0) {
        holding.side = side;
        holding.qty = qty;
        holding.entry_price = price;
        holding.entry_notional = quantize(qty * price);
        holding.trade_pnl = 0.0;
        holding.margin = quantize(posted);
    } else {
        holding.margin = quantize(holding.margin + posted);
        double new_qty = to_decimal_grid(holding.qty + qty);
        holding.entry_price = to_decimal_grid((holding.entry_price * holding.qty + price * qty) / new_qty);
        holding.entry_notional = quantize(holding.entry_notional + qty * price);
        holding.qty = new_qty;
    }
    account.cash = quantize(account.cash - fee);
    account.fees_paid = quantize(account.fees_paid + fee);
    holding.trade_pnl = quantize(holding.trade_pnl - fee);
    return fee;
}

// The realized price PnL of closing `qty` of the holding at `price`, against
// its average entry price (quantized): every close's, the liquidation's too.
BT_KERNEL inline double realized_price_pnl(const Holding& holding, double qty, double price) {
    return quantize(static_cast<double>(holding.side) * (price - holding.entry_price) * qty);
}

// Books the close of `qty` of the holding with realized price PnL `pnl` and
// `fee` (both quantized): the cash and the round trip take pnl - fee; the
// margin left is in proportion to the quantity left. The holding is flat
// (side 0) when nothing is left.
BT_KERNEL inline void book_close_fill(Account& account, Holding& holding, double qty, double pnl, double fee) {
    account.cash = quantize(account.cash + pnl - fee);
    account.fees_paid = quantize(account.fees_paid + fee);
    holding.trade_pnl = quantize(holding.trade_pnl + pnl - fee);
    double left = to_decimal_grid(holding.qty - qty);
    if (left <= 0.0) {
        holding.qty = 0.0;
        holding.side = 0;
        holding.margin = 0.0;
    } else {
        holding.margin = quantize(holding.margin * (left / holding.qty));
        holding.qty = left;
    }
}

// Closes `qty` of the holding at `price`: realized PnL against the average
// entry price, minus the fee. Returns the realized price PnL (before the fee).
BT_KERNEL inline double apply_close_fill(Account& account, Holding& holding, double qty, double price, double rate,
                                         double* fee_out) {
    double pnl = realized_price_pnl(holding, qty, price);
    double fee = quantize(qty * price * rate);
    book_close_fill(account, holding, qty, pnl, fee);
    if (fee_out != nullptr) *fee_out = fee;
    return pnl;
}

}  // namespace btforge
