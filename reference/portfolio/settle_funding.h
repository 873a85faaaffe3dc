#pragma once

#include "reference/accounting/funding.h"
#include "reference/accounting/holding.h"
#include "reference/kernel_marker.h"

namespace btforge {

// SPEC §4/§6 step 2: a bar settles every funding time in (previous own bar,
// this bar] — `events` of them, precomputed with the market — each at this
// bar's rate on the notional at the open.
BT_KERNEL inline void settle_funding(Account& account, Holding& holding, int events, double open_price, double rate) {
    if (holding.side == 0) return;
    for (int k = 0; k < events; ++k) {
        apply_funding(account, holding, funding_delta(holding.side, holding.qty, open_price, rate));
    }
}

}  // namespace btforge
