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
        if (log != nullptr) {
            FillRecord record;
            record.bar = where.bar;
            record.symbol = where.symbol;
            record.reason = kFunding;
            record.trade_dir = holding.side;
            record.trade_index = where.trade_index;
            record.qty = holding.qty;
            record.price = market.open[i];
            record.fee = 0.0;
            record.realized_pnl = 0.0;
            record.cash_after = account.cash;
            record.funding = delta;
            log_fill(log, record);
        }
    }
}

}  // namespace btforge
