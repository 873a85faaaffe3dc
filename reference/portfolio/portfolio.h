#pragma once

#include "reference/accounting/fee_model.h"
#include "reference/accounting/holding.h"
#include "reference/accounting/mark_to_market.h"
#include "reference/exits/liquidation.h"
#include "reference/kernel_marker.h"
#include "reference/margin/maintenance_margin.h"
#include "reference/margin/margin_schedule.h"
#include "reference/market/market_view.h"
#include "reference/market/symbol_set.h"

namespace btforge {

// One combination's book: the shared cash account, one holding per symbol,
// and how they are margined (Note [Cross and isolated margin]). Strategies
// keep their own per-symbol decision state (brackets, pending orders) beside
// it; what is money lives here.
struct BT_KERNEL Portfolio {
    Account account;
    Holding holdings[kMaxSymbols];
    int n_symbols;
    // BT_COLD (Note [Cold fields]): read only for open positions.
    BT_COLD int margin_mode;               // MarginMode
    BT_COLD const MarginSchedule* margin;  // the market's, [n_symbols]
    // How the last stop or liquidation exit left (Note [Ambiguous bars]): 1
    // inside the bar (the stop's level, the liquidation price), 0 at the open
    // (a gap through the stop, a liquidation at the open). Written and read
    // on those exits only: a flag or code handed back through the calls
    // measured up to 11% on the default strategy's kernel (issue 33).
    BT_COLD int last_exit_inside;
};

BT_KERNEL inline void portfolio_begin(Portfolio& portfolio, const AccountConfig& config, const MarketView& market) {
    portfolio.account.cash = config.initial_equity;
    portfolio.account.fees_paid = 0.0;
    portfolio.account.funding_paid = 0.0;
    portfolio.n_symbols = market.n_symbols;
    portfolio.margin_mode = config.margin_mode;
    portfolio.margin = market.margin;
    portfolio.last_exit_inside = 0;
    for (int s = 0; s < market.n_symbols; ++s) {
        portfolio.holdings[s].side = 0;
        portfolio.holdings[s].qty = 0.0;
        portfolio.holdings[s].entry_price = 0.0;
        portfolio.holdings[s].entry_notional = 0.0;
        portfolio.holdings[s].trade_pnl = 0.0;
        portfolio.holdings[s].margin = 0.0;
        portfolio.holdings[s].cushion = 0.0;
    }
}

// Equity marked at the close of bar t: cash plus every holding's unrealized
// PnL at its (held) close, in symbol order. Sets *has_position when any
// holding is open. Only the symbols in `may_hold` are looked at: a strategy
// that knows which symbols are flat leaves them out (Note [Busy symbols] of
// the default strategy), one that does not passes symbol_set_of_first(n).
BT_KERNEL inline double portfolio_equity_at_close(const Portfolio& portfolio, const MarketView& market, int t,
                                                  const SymbolSet& may_hold, int* has_position) {
    double equity = portfolio.account.cash;
    *has_position = 0;
    for (int w = 0; w < symbol_words(portfolio.n_symbols); ++w) {
        for (unsigned rest = may_hold.words[w]; rest != 0u; rest &= rest - 1u) {
            int s = w * kSymbolWordBits + lowest_member(rest);
            const Holding& h = portfolio.holdings[s];
            if (h.side != 0) {
                equity += mark_to_market_pnl(h, market.close[market_index(market, s, t)]);
                *has_position = 1;
            }
        }
    }
    return equity;
}

// B of Note [Liquidation price] for holding s: in isolated margin its own
// margin; in cross the cash plus the cushion of every other open holding
// (only those in `may_hold` can be open), in symbol order.
BT_KERNEL inline double portfolio_margin_balance(const Portfolio& portfolio, int s, const SymbolSet& may_hold) {
    if (portfolio.margin_mode == kIsolatedMargin) return portfolio.holdings[s].margin;
    double balance = portfolio.account.cash;
    for (int w = 0; w < symbol_words(portfolio.n_symbols); ++w) {
        unsigned rest = may_hold.words[w];
        if (w == symbol_word(s)) rest &= ~symbol_bit(s);  // every other symbol
        for (; rest != 0u; rest &= rest - 1u) {
            const Holding& h = portfolio.holdings[w * kSymbolWordBits + lowest_member(rest)];
            if (h.side != 0) balance += h.cushion;
        }
    }
    return balance;
}

// Initial margin of the open holdings at their entry prices.
BT_KERNEL inline double portfolio_used_margin(const Portfolio& portfolio, double max_leverage) {
    double margin = 0.0;
    for (int s = 0; s < portfolio.n_symbols; ++s) {
        const Holding& h = portfolio.holdings[s];
        if (h.side != 0) margin += h.qty * h.entry_price / max_leverage;
    }
    return margin;
}

}  // namespace btforge
