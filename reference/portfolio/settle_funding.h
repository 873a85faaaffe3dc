#pragma once

#include "reference/accounting/funding.h"
#include "reference/accounting/holding.h"
#include "reference/kernel_marker.h"
#include "reference/market/market_view.h"

namespace btforge {

// SPEC §4/§6 step 2: bar i of the market settles every funding time in
// (previous own bar, this bar] — funding_events[i] of them, precomputed with
// the market — each at this bar's rate on the notional at the open; a market
// without funding settles nothing (Note [Markets without funding]).
BT_KERNEL inline void settle_funding(Account& account, Holding& holding, const MarketView& market, int i) {
    if (holding.side == 0 || market.funding_free != 0) return;
    for (int k = 0; k < market.funding_events[i]; ++k) {
        apply_funding(account, holding,
                      funding_delta(holding.side, holding.qty, market.open[i], market.funding_rate[i]));
    }
}

}  // namespace btforge
