#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Cash side of the portfolio shared by all symbols of one combination. The
// totals change only at fills and funding (BT_COLD, Note [Cold fields]).
struct BT_KERNEL Account {
    double cash;          // initial equity + realized PnL - fees - funding
    BT_COLD double fees_paid;
    BT_COLD double funding_paid;  // positive: paid by the account
};

// The open quantity of one symbol and what the round trip has made so far.
struct BT_KERNEL Holding {
    int side;               // +1 long, -1 short, 0 flat
    double qty;             // > 0 while open
    double entry_price;     // average entry price
    double entry_notional;  // qty * price at entry: the base of the trade's return
    double trade_pnl;       // realized PnL - fees - funding of this round trip so far
    // Note [Cross and isolated margin]: posted at the open (notional over the
    // leverage), less the funding paid, released in proportion by partial
    // closes. What backs the position in isolated mode; kept, unread, in cross.
    double margin;
    // Cross margin: unrealized PnL less maintenance margin at its last mark,
    // the adverse extreme of the last bar it was checked on: what the
    // position adds to the margin balance behind the others (Note
    // [Liquidation rule]).
    double cushion;
};

}  // namespace btforge
