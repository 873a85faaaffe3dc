#pragma once

#include <filesystem>
#include <span>
#include <vector>

#include "host/data/market.h"
#include "host/data/market_window.h"
#include "reference/market/market_view.h"
#include "reference/portfolio/fill_log.h"

namespace btforge {

// One round trip of a replay: its fills (Note [Round trips from the fill
// log]) and the funding it paid while open.
struct RoundTrip {
    int trade = 0;          // FillRecord::trade_index
    int symbol = 0;
    int side = 0;           // +1 long, -1 short
    int entry_bar = 0;      // of the first entry fill
    double entry_price = 0; // quantity-weighted average of the entry fills
    int exit_bar = 0;       // of the final close
    double exit_price = 0;  // quantity-weighted average of the closing fills
    double quantity = 0;    // entered
    double gross_pnl = 0;   // realized price PnL of the closing fills
    double fees = 0;        // of every fill of the trade
    double funding = 0;     // settled while it was open; positive: paid
    double net_pnl = 0;     // the trade's result as the reference's metrics count it
    int exit_reason = 0;    // FillReason of the final close
};

// The round trips of a complete fill log (its fills and funding
// settlements, in the reference's order), in the order of their trade index.
// `initial_equity` is the account's starting cash; `market` bounds the bars
// and symbols. Throws std::runtime_error when the log does not add up (Note
// [Round trips from the fill log]): nothing is then attributed.
std::vector<RoundTrip> derive_round_trips(const MarketView& market, double initial_equity,
                                          std::span<const FillRecord> log);

// trade,symbol,side,entry_time,entry_price,exit_time,exit_price,quantity,
// gross_pnl,fees,funding,net_pnl,exit_reason,bars_held
// Bars count from the window's first bar, as the fills' do (trade_log_writer.h).
void write_round_trips_csv(std::ostream& out, const Market& market, const MarketWindow& window,
                           const std::vector<RoundTrip>& round_trips);

}  // namespace btforge
