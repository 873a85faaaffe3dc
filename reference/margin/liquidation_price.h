#pragma once

#include "reference/kernel_marker.h"
#include "reference/margin/margin_schedule.h"

namespace btforge {

// Note [Liquidation price]
// A position of `side` (+1 long, -1 short), quantity Q > 0 and average entry
// price EP is liquidated at the price P where its margin balance meets its
// maintenance margin:
//     B + side * Q * (P - EP) = MM(Q * P),
// B being what the margin mode puts behind it (Note [Cross and isolated
// margin]): isolated, the position's own margin; cross, the cash plus every
// other open position's unrealized PnL less its maintenance margin. With
// tier k's line for MM this is Binance's published formula for USD-M
// futures in one-way mode ("How to Calculate Liquidation Price of USDⓈ-M
// Futures Contracts": LP = (WB - TMM1 + UPNL1 + cumB - Side1 * Position1 *
// EP1) / (Position1 * MMR - Side1 * Position1)), B standing for
// WB - TMM1 + UPNL1:
//     P_k = (B + amount[k] - side * Q * EP) / (Q * rate[k] - side * Q).
// Binance says to use the tier of the notional at the liquidation price.
// Because MM is the largest of the tiers' lines (Note [Maintenance margin
// tiers]), the margin balance less MM is the smallest of the lines'
// differences, each a line in P (rising for a long, falling for a short):
// the long is liquidated below every P_k at or under which some line is,
// i.e. at the largest P_k, the short at the smallest. So the tier needs no
// search: the maximum (long) or minimum (short) of the P_k is exactly the
// price of the tier that holds Q * P. A result at or below 0 for a long
// means it cannot be liquidated at any positive price.
BT_KERNEL inline double liquidation_price(int side, double qty, double entry_price, double balance,
                                          const MarginSchedule& schedule) {
    double sided = static_cast<double>(side);
    double price = 0.0;
    for (int k = 0; k < schedule.n_tiers; ++k) {
        double p_k = (balance + schedule.amount[k] - sided * qty * entry_price) / (qty * schedule.rate[k] - sided * qty);
        if (k == 0 || (side > 0 ? p_k > price : p_k < price)) price = p_k;
    }
    return price;
}

}  // namespace btforge
