#pragma once

#include "reference/accounting/funding.h"
#include "reference/accounting/holding.h"
#include "reference/kernel_marker.h"

namespace btforge {

// SPEC §4/§6 step 2: a bar settles every funding time in (previous own bar,
// this bar] — `events` of them, precomputed with the market — each at this
// bar's rate on the notional at the open.
//
// Note [A zero rate settles nothing]
// A funding time whose rate is 0 is skipped, not booked. Skipping is exact:
// the payment is quantize(±0) = ±0, and every amount a settlement touches
// (the cash, the funding paid, the trade's PnL, the margin) is already a
// multiple of the quantum when a holding is open (its opening fill booked
// them), so quantize(x - 0) and quantize(x + 0) return x bit for bit (Note
// [Accounting quantum]; under the earlier decimal rule they did not above
// 4096, which is why this was not done before). None of them is -0 (sums of
// amounts that start at +0 never give -0), so a payment of -0 changes no sign
// either. A market without funding rates (a CSV without the column) thus pays
// nothing for funding per bar; host/report/round_trips.cpp skips alike.
BT_KERNEL inline void settle_funding(Account& account, Holding& holding, int events, double open_price, double rate) {
    if (holding.side == 0 || rate == 0.0) return;
    for (int k = 0; k < events; ++k) {
        apply_funding(account, holding, funding_delta(holding.side, holding.qty, open_price, rate));
    }
}

}  // namespace btforge
