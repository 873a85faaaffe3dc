#pragma once

#include "reference/accounting/fee_model.h"
#include "reference/accounting/fills.h"
#include "reference/accounting/holding.h"
#include "reference/accounting/liquidation_fill.h"
#include "reference/exits/liquidation.h"
#include "reference/kernel_marker.h"
#include "reference/margin/margin_schedule.h"
#include "reference/market/mark_price.h"
#include "reference/market/symbol_set.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/fill_log.h"
#include "reference/portfolio/portfolio.h"

namespace btforge {

// Where a fill happens: shared by every fill helper so a log record and the
// accounting always describe the same event. The holding is the portfolio's
// of `symbol`.
struct BT_KERNEL FillContext {
    int bar;
    int symbol;
    int trade_index;
};

BT_KERNEL inline FillContext fill_context(int bar, int symbol, int trade_index) {
    FillContext where;
    where.bar = bar;
    where.symbol = symbol;
    where.trade_index = trade_index;
    return where;
}

// One record of the account's ledger (Note [Funding in the fill log]) for
// the holding `where` names: a fill (funding 0) or a funding settlement.
BT_KERNEL inline void log_position_record(FillLog* log, const FillContext& where, int reason, int trade_dir,
                                          double qty, double price, double fee, double realized_pnl,
                                          double cash_after, double funding) {
    if (log == nullptr) return;
    FillRecord record;
    record.bar = where.bar;
    record.symbol = where.symbol;
    record.reason = reason;
    record.trade_dir = trade_dir;
    record.trade_index = where.trade_index;
    record.qty = qty;
    record.price = price;
    record.fee = fee;
    record.realized_pnl = realized_pnl;
    record.cash_after = cash_after;
    record.funding = funding;
    log_fill(log, record);
}

BT_KERNEL inline void log_position_fill(FillLog* log, const FillContext& where, int reason, int trade_dir, double qty,
                                        double price, double fee, double realized_pnl, double cash_after) {
    log_position_record(log, where, reason, trade_dir, qty, price, fee, realized_pnl, cash_after, 0.0);
}

// Opens a holding at `fill_price` (slippage already applied by the caller,
// who also needed that price to size the order), paying the fee of `role`
// (a market or stop entry is a taker, a resting limit entry a maker:
// reference/orders/), posting notional / leverage of margin (Note [Cross and
// isolated margin]) and logged with `reason` (kEntry at the open,
// kRestingEntry inside the bar).
BT_KERNEL inline void open_position_by_role(Portfolio& pf, FillLog* log, const AccountConfig& config,
                                            const FillContext& where, int side, double qty, double fill_price,
                                            double leverage, FillRole role, int reason) {
    Holding& holding = pf.holdings[where.symbol];
    double fee = apply_open_fill(pf.account, holding, side, qty, fill_price, fee_rate(config, role), leverage);
    log_position_fill(log, where, reason, side, qty, fill_price, fee, 0.0, pf.account.cash);
}

// Opens a holding as a taker (a market entry at the open).
BT_KERNEL inline void open_position(Portfolio& pf, FillLog* log, const AccountConfig& config, const FillContext& where,
                                    int side, double qty, double fill_price, double leverage) {
    open_position_by_role(pf, log, config, where, side, qty, fill_price, leverage, kTaker, kEntry);
}

// Closes `qty` of a holding at the quoted price: slippage and fee by role,
// logged with its reason; when the holding becomes flat the round trip is
// handed to the metrics. Returns 1 when the holding is flat afterwards.
BT_KERNEL inline int close_position(Portfolio& pf, MetricsAccumulator& metrics, FillLog* log,
                                    const AccountConfig& config, const FillContext& where, double qty,
                                    double quoted_price, FillRole role, int reason) {
    Holding& holding = pf.holdings[where.symbol];
    int trade_dir = -holding.side;
    double price = slipped_price(config, quoted_price, trade_dir, role);
    double entry_notional = holding.entry_notional;
    double fee = 0.0;
    double pnl = apply_close_fill(pf.account, holding, qty, price, fee_rate(config, role), &fee);
    log_position_fill(log, where, reason, trade_dir, qty, price, fee, pnl, pf.account.cash);
    if (holding.side != 0) return 0;
    metrics_on_trade_closed(metrics, holding.trade_pnl, entry_notional);
    return 1;
}

// Closes the whole holding as Note [Liquidation fill] says, at the price of
// a liquidation check that found it liquidated; logged as kLiquidation and
// counted by the metrics.
BT_KERNEL inline void liquidate_position(Portfolio& pf, MetricsAccumulator& metrics, FillLog* log,
                                         const FillContext& where, const LiquidationCheck& liquidation) {
    Holding& holding = pf.holdings[where.symbol];
    int trade_dir = -holding.side;
    double qty = holding.qty;
    double entry_notional = holding.entry_notional;
    LiquidationAmounts amounts = liquidation_amounts(holding, liquidation.price, liquidation.balance,
                                                     pf.margin[where.symbol].liquidation_fee, pf.margin_mode);
    book_close_fill(pf.account, holding, qty, amounts.pnl, amounts.fee);
    log_position_fill(log, where, kLiquidation, trade_dir, qty, liquidation.price, amounts.fee, amounts.pnl,
                      pf.account.cash);
    metrics_on_trade_closed(metrics, holding.trade_pnl, entry_notional);
    metrics_on_liquidation(metrics, holding.trade_pnl);
}

// The rest of Note [Liquidation rule] once step 1 found the holding of
// where.symbol liquidated in the bar (balance: B of the condition): where,
// and whether before the stop; liquidates it and returns 1 when first
// (pf.last_exit_inside says where), else 0. Constant returns keep the
// callers' tests folded into the branches: returning the outcome instead
// measured three more instructions per held symbol and bar in
// xs_momentum's loop (issue 33).
// Inlined like everything else: a real call (__noinline__) anywhere in a
// bar loop measured 1.5-1.75x slower even where never taken
// (docs/PERFORMANCE.md, issue 16).
BT_KERNEL inline int liquidate_when_first(Portfolio& pf, MetricsAccumulator& metrics, FillLog* log,
                                          const FillContext& where, double balance, const MarkPrices& mark,
                                          double stop, int stop_outcome) {
    const Holding& h = pf.holdings[where.symbol];
    LiquidationCheck liquidation =
        locate_liquidation(h.side, h.qty, h.entry_price, balance, pf.margin[where.symbol], mark.open, mark.high,
                           mark.low);
    // Rule 3 of Note [Mark price]: the stop, a last-price level, shifted by the bar's basis (0 without a mark).
    if (liquidation_comes_first(liquidation, h.side, stop + mark.basis, stop_outcome) == 0) return 0;
    pf.last_exit_inside = liquidation.outcome == kLiquidatedAtOpen ? 0 : 1;
    liquidate_position(pf, metrics, log, where, liquidation);
    return 1;
}

// Note [Liquidation rule] for the open holding of where.symbol in a bar
// whose mark prices are `mark` (Note [Mark price]: the last price's own
// where the market has no mark; mark.open is the fill's price for a
// position filled inside the bar), against its stop (`stop` and
// evaluate_stop's `stop_outcome` for this bar; kStopNotHit without one):
// liquidates it and returns 1 when the liquidation comes first
// (pf.last_exit_inside set), else returns 0 and leaves the stop to the
// caller. `may_hold` as portfolio_margin_balance takes it. In cross margin
// the holding is marked at the bar's adverse extreme for the positions
// after it in the bar (step 1). The common answer, not reached, costs one
// comparison; the rest runs only where it is.
BT_KERNEL inline int liquidate_if_first(Portfolio& pf, MetricsAccumulator& metrics, FillLog* log,
                                        const FillContext& where, const SymbolSet& may_hold, const MarkPrices& mark,
                                        double stop, int stop_outcome) {
    Holding& h = pf.holdings[where.symbol];
    const MarginSchedule& schedule = pf.margin[where.symbol];
    double balance = portfolio_margin_balance(pf, where.symbol, may_hold);
    double adverse = h.side > 0 ? mark.low : mark.high;
    // at_or_below_maintenance(h.side, h.qty, h.entry_price, balance, schedule, adverse), its two terms kept:
    double pnl_at_adverse = mark_to_market_pnl(h, adverse);
    double maintenance_at_adverse = maintenance_margin(schedule, h.qty * adverse);
    if (pf.margin_mode == kCrossMargin) h.cushion = pnl_at_adverse - maintenance_at_adverse;
    if (balance + pnl_at_adverse > maintenance_at_adverse) return 0;
    return liquidate_when_first(pf, metrics, log, where, balance, mark, stop, stop_outcome);
}

// In cross margin, the cushion liquidate_if_first leaves on a holding that
// a bar did not close: its margin at the bar's adverse extreme, for the
// positions after it in the bar. Called after a bar settled on its finer
// bars (Note [Finer bars]), whose last liquidation check marked the holding
// at the last finer bar's extreme only.
BT_KERNEL inline void mark_cushion_at_extreme(Portfolio& pf, int symbol, double high, double low) {
    if (pf.margin_mode != kCrossMargin) return;
    Holding& h = pf.holdings[symbol];
    double adverse = h.side > 0 ? low : high;
    h.cushion = mark_to_market_pnl(h, adverse) - maintenance_margin(pf.margin[symbol], h.qty * adverse);
}

}  // namespace btforge
