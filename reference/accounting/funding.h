#pragma once

#include "reference/accounting/holding.h"
#include "reference/accounting/quantize.h"
#include "reference/kernel_marker.h"

namespace btforge {

// One funding settlement of a perpetual future: longs pay shorts when the rate
// is positive. Positive result = paid by the account.
BT_KERNEL inline double funding_delta(int side, double qty, double price, double rate) {
    return quantize(static_cast<double>(side) * qty * price * rate);
}

BT_KERNEL inline void apply_funding(Account& account, Holding& holding, double delta) {
    account.cash = quantize(account.cash - delta);
    account.funding_paid = quantize(account.funding_paid + delta);
    holding.trade_pnl = quantize(holding.trade_pnl - delta);
    holding.margin = quantize(holding.margin - delta);  // Note [Cross and isolated margin]
}

}  // namespace btforge
