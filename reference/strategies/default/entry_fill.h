#pragma once

#include <cmath>

#include "reference/accounting/fee_model.h"
#include "reference/accounting/quantize.h"
#include "reference/kernel_marker.h"
#include "reference/portfolio/portfolio.h"
#include "reference/portfolio/position_fills.h"
#include "reference/strategies/default/params.h"
#include "reference/strategies/default/position.h"

namespace btforge {

// Note [Entry sizing]
// An entry decided at the close of t-1 fills at open[t] as a taker. Its size
// risks risk_per_trade of the equity marked at the close of t-1 on the
// distance to the stop (sl_atr * ATR), is capped so the notional stays within
// max_leverage * equity, and is floored to qty_step. The order is skipped when
// the floored size is below min_qty, or when the initial margin of all open
// positions plus this one (notional / max_leverage) would exceed that equity.
BT_KERNEL inline double size_entry(double equity, double fill_price, double atr, double used_margin,
                                   const DefaultParams& p, double qty_step, double min_qty) {
    if (equity <= 0.0 || atr <= 0.0 || fill_price <= 0.0) return 0.0;
    double risk_qty = equity * p.risk_per_trade / (p.sl_atr * atr);
    double cap_qty = p.max_leverage * equity / fill_price;
    double qty = floor_to_step(std::fmin(risk_qty, cap_qty), qty_step);
    if (qty < min_qty) return 0.0;
    if (used_margin + qty * fill_price / p.max_leverage > equity) return 0.0;
    return qty;
}

// SPEC §6 step 1; the position posts notional / max_leverage of margin (Note
// [Cross and isolated margin]). Returns 1 when the entry filled.
BT_KERNEL inline int fill_pending_entry(DefaultSymbolState& state, Portfolio& pf, FillLog* log,
                                        const AccountConfig& config, const DefaultParams& p, int bar, int symbol,
                                        int trade_index, double open_price, double equity_prev_close,
                                        double used_margin, double qty_step, double min_qty, double price_tick) {
    int side = state.pending_entry;
    double atr = state.pending_atr;
    state.pending_entry = 0;
    double fill_price = slipped_price(config, open_price, side, kTaker);
    double qty = size_entry(equity_prev_close, fill_price, atr, used_margin, p, qty_step, min_qty);
    if (qty <= 0.0) return 0;
    BracketPosition& pos = state.position;
    FillContext where = fill_context(bar, symbol, trade_index);
    open_position(pf, log, config, where, side, qty, fill_price, p.max_leverage);
    double sided = static_cast<double>(side);
    pos.stop = round_to_tick(fill_price - sided * p.sl_atr * atr, price_tick);
    pos.tp1 = round_to_tick(fill_price + sided * p.tp1_atr * atr, price_tick);
    pos.tp = round_to_tick(fill_price + sided * p.tp_atr * atr, price_tick);
    pos.best_price = fill_price;
    pos.entry_atr = atr;
    pos.entry_bar = bar;
    pos.tp1_done = 0;
    pos.trade_index = trade_index;
    return 1;
}

}  // namespace btforge
