#pragma once

#include "reference/accounting/funding.h"
#include "reference/accounting/holding.h"
#include "reference/kernel_marker.h"
#include "reference/market/market_view.h"
#include "reference/portfolio/fill_log.h"
#include "reference/portfolio/position_fills.h"

namespace btforge {

// SPEC §4/§6 step 2: bar i of the market settles every funding time in
// (previous own bar, this bar] — funding_events[i] of them, precomputed with
// the market — each at this bar's rate on the notional at the open; a market
// without funding settles nothing (Note [Markets without funding]). Each
// settlement is a record of the log (Note [Funding in the fill log]);
// `where` names the holding's trade.
BT_KERNEL inline void settle_funding(Account& account, Holding& holding, FillLog* log, const FillContext& where,
                                     const MarketView& market, int i) {
    if (holding.side == 0 || market.funding_free != 0) return;
    for (int k = 0; k < market.funding_events[i]; ++k) {
        double delta = funding_delta(holding.side, holding.qty, market.open[i], market.funding_rate[i]);
        apply_funding(account, holding, delta);
        log_position_record(log, where, kFunding, holding.side, holding.qty, market.open[i], 0.0, 0.0, account.cash,
                            delta);
    }
}

}  // namespace btforge
