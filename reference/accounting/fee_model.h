#pragma once

#include "reference/kernel_marker.h"
#include "reference/margin/margin_schedule.h"

namespace btforge {

// Maker fills rest on the book (take-profit limits); taker fills cross the
// spread (market entries, stops, signal and time exits) and pay slippage.
enum BT_KERNEL FillRole : int { kMaker = 0, kTaker = 1 };

// Costs and account settings shared by every strategy; from the spec's
// "account" block, fixed for a whole sweep.
struct BT_KERNEL AccountConfig {
    double initial_equity;
    double maker_fee;      // fraction of notional
    double taker_fee;      // fraction of notional
    double slippage;       // fraction of price, against the trader, taker fills only
    double bars_per_year;  // annualizes sharpe, sortino and calmar; derived from the data's bar spacing
    int n_periods;         // periods of the window with statistics of their own, 0..kMaxPeriods (Note [Period statistics])
    int margin_mode;       // MarginMode: cross or isolated (Note [Cross and isolated margin])
    int equity_marks;      // 0: the equity curve takes every bar; else that many parts' last (Note [Equity marks])
    int daily_equity_marks;  // 1: the equity_marks parts are the window's UTC days (Note [Equity marks at UTC days])
};

BT_KERNEL inline double fee_rate(const AccountConfig& config, FillRole role) {
    return role == kMaker ? config.maker_fee : config.taker_fee;
}

// Price actually obtained by a fill of direction `trade_dir` (+1 buy, -1 sell):
// a taker buys higher and sells lower than the quoted price.
BT_KERNEL inline double slipped_price(const AccountConfig& config, double price, int trade_dir, FillRole role) {
    if (role == kMaker) return price;
    return price * (1.0 + static_cast<double>(trade_dir) * config.slippage);
}

}  // namespace btforge
