#pragma once

#include <cmath>

#include "reference/accounting/fee_model.h"
#include "reference/exits/ambiguous_bar.h"
#include "reference/exits/stop_loss.h"
#include "reference/kernel_marker.h"
#include "reference/market/mark_price.h"
#include "reference/market/symbol_set.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/fill_log.h"
#include "reference/portfolio/portfolio.h"
#include "reference/portfolio/position_fills.h"

namespace btforge {

// Note [One stop exit for every strategy]
// Step 3 of a bar begins the same way in every strategy with a stop: the
// exchange's liquidation where the price reaches it before the stop (Note
// [Liquidation rule]), else the stop (Note [Stop-loss rule]): a bar that
// opens through it fills the whole holding at the open, one whose range
// reaches it fills at the stop, both as a taker with slippage. It is written
// once, here, so a strategy names its stop and the prices and cannot order
// the three outcomes otherwise. `open_reference` is the price the bar starts
// from for this holding (the open, or the fill price of a position filled
// inside the bar); `gap_price` is where a gapped stop fills (the open). The
// function is inlined like every step of the bar loop, so a strategy pays
// on the GPU exactly what it paid with the lines written out.

// Liquidates or stops out the open holding of where.symbol in a bar of these
// prices; returns 1 when the holding is flat afterwards, 0 when it stays
// open (neither was reached). When it left, pf.last_exit_inside says
// whether inside the bar or at the open (Note [Ambiguous bars]). `may_hold`
// as liquidate_if_first takes it; `mark` is mark_prices of the bar for
// open_reference (Note [Mark price]), which the liquidation reads.
BT_KERNEL inline int exit_at_stop_or_liquidation(Portfolio& pf, MetricsAccumulator& metrics, FillLog* log,
                                                 const AccountConfig& config, const FillContext& where,
                                                 const SymbolSet& may_hold, double stop, double open_reference,
                                                 double gap_price, double high, double low, const MarkPrices& mark) {
    Holding& holding = pf.holdings[where.symbol];
    int outcome = evaluate_stop(holding.side, stop, open_reference, high, low);
    if (liquidate_if_first(pf, metrics, log, where, may_hold, mark, stop, outcome) != 0) return 1;
    if (outcome == kStopGapped) {
        pf.last_exit_inside = 0;
        return close_position(pf, metrics, log, config, where, holding.qty, gap_price, kTaker, kStopGap);
    }
    if (outcome == kStopHit) {
        pf.last_exit_inside = 1;
        return close_position(pf, metrics, log, config, where, holding.qty, stop, kTaker, kStopLoss);
    }
    return 0;
}

// Note [Out of reach for the rest of a bar]
// A walk over a bar's finer bars (Note [Finer bars]) may end before its
// last finer bar once nothing left in the bar can close the open holding:
// every finer bar lies inside the bar's range, so where that range does not
// reach the stop, no finer bar reaches it or opens beyond it; and where the
// holding is clear of its liquidation at the bar's adverse extreme, no
// finer bar liquidates it, because B plus the unrealized PnL minus the
// maintenance margin only grows as the price moves from there in the
// position's favour (the PnL moves by qty per unit of price, the margin by
// qty times a rate below 1, continuous across tiers: Note [Maintenance
// margin tiers]), and B does not move while one symbol's bar is walked (no
// fill, no funding, the other holdings' cushions as they were). The test
// asks for a clearance of a millionth of the amounts it adds, far above
// their rounding and the 1e-9 a tier's amount may be off continuity, so
// where it answers 1 the walk to the last finer bar would close nothing: a
// walk ended by it settles exactly as the whole walk. A market with finer
// bars has no mark price (--intrabar and --mark are refused together), so
// the liquidation reads the last price, as here.
BT_KERNEL inline int stop_and_liquidation_out_of_reach(const Portfolio& pf, int symbol, const SymbolSet& may_hold,
                                                       double stop, double high, double low) {
    const Holding& h = pf.holdings[symbol];
    if (stop_touched(h.side, stop, high, low) != 0) return 0;
    double adverse = h.side > 0 ? low : high;
    double balance = portfolio_margin_balance(pf, symbol, may_hold);
    double pnl = mark_to_market_pnl(h, adverse);
    double notional = h.qty * adverse;
    double clearance = balance + pnl - maintenance_margin(pf.margin[symbol], notional);
    return clearance > 1e-6 * (std::fabs(balance) + std::fabs(pnl) + notional) ? 1 : 0;
}

}  // namespace btforge
