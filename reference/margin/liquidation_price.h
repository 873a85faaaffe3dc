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
// Binance says to use the tier of the notional at the liquidation price,
// re-computing when it differs from the tier at entry. That tier is found
// without a division: in terms of the notional N = Q * P the margin balance
// less the maintenance margin is
//     g(N) = B - side * Q * EP + side * N - MM(N),
// rising in N for a long and falling for a short (rates are below 1), so
// the price lies in the last tier at whose floor g has not yet crossed zero
// (a long: g(floor) <= 0 means the price is at or above that floor; a
// short: g(floor) >= 0). Then one division gives P_k of that tier. Because
// MM is the largest of the tiers' lines (Note [Maintenance margin tiers]),
// this P_k is also the maximum (long) or minimum (short) of all the P_k.
// A result at or below 0 for a long means it cannot be liquidated at any
// positive price. The search keeps the divisions out of the loop: inlined
// into a strategy's bar loop, one division per tier raised its register
// peak past what 5 blocks per SM allow (docs/PERFORMANCE.md, issue 16).
BT_KERNEL inline double liquidation_price(int side, double qty, double entry_price, double balance,
                                          const MarginSchedule& schedule) {
    double sided = static_cast<double>(side);
    double base = balance - sided * qty * entry_price;
    int k = 0;
    while (k + 1 < schedule.n_tiers) {
        double floor = schedule.notional_floor[k + 1];
        double at_floor = base + sided * floor - (floor * schedule.rate[k + 1] - schedule.amount[k + 1]);
        if (side > 0 ? at_floor > 0.0 : at_floor < 0.0) break;
        k += 1;
    }
    return (balance + schedule.amount[k] - sided * qty * entry_price) / (qty * schedule.rate[k] - sided * qty);
}

}  // namespace btforge
