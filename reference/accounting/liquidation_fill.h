#pragma once

#include <cmath>

#include "reference/accounting/fills.h"
#include "reference/accounting/holding.h"
#include "reference/accounting/quantize.h"
#include "reference/kernel_marker.h"
#include "reference/margin/margin_schedule.h"

namespace btforge {

// Note [Liquidation fill]
// A liquidation closes the whole position at the price of Note [Liquidation
// rule], without slippage, and pays the instrument's liquidation fee:
//     pnl = side * (P - EP) * Q,
//     fee = min(liquidation_fee * Q * P, max(0, B + pnl)),
// B being the balance behind the position (Note [Liquidation price]): the
// fee never takes more than the margin that is left above the other
// positions' maintenance once the position is closed. At the liquidation
// price that is exactly the position's own maintenance margin MM(Q * P), so
// with a fee rate at or above the maintenance rate (the default) the
// position is closed with nothing left, at its bankruptcy level; after a gap
// through the liquidation price less is left, or nothing. In isolated margin
// a position cannot lose more than its margin M: when the price loss alone
// exceeds max(M, 0) (a gap through the bankruptcy price; the fee is 0 then)
// it is cut to that, the exchange's insurance fund taking the rest. In
// cross margin the loss is not cut: such a gap leaves the account below
// zero, and the metrics show the ruin.
struct BT_KERNEL LiquidationAmounts {
    double pnl;  // realized price PnL booked, quantized
    double fee;  // quantized
};

BT_KERNEL inline LiquidationAmounts liquidation_amounts(const Holding& holding, double price, double balance,
                                                        double fee_rate, int margin_mode) {
    LiquidationAmounts amounts;
    amounts.pnl = realized_price_pnl(holding, holding.qty, price);
    amounts.fee = quantize(std::fmin(holding.qty * price * fee_rate, std::fmax(0.0, balance + amounts.pnl)));
    if (margin_mode == kIsolatedMargin) {
        double covered = std::fmax(holding.margin, 0.0);
        if (amounts.pnl < -covered) amounts.pnl = -covered;
    }
    return amounts;
}

}  // namespace btforge
