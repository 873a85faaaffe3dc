#pragma once

#include <ostream>
#include <vector>

#include "host/data/market.h"
#include "host/data/market_window.h"
#include "host/validation/walk_forward_path.h"
#include "reference/portfolio/fill_log.h"

namespace btforge {

// The fills' bars and the equity curve count from the window's first bar (a
// strategy sees only the window, Note [Market windows]); the files name the
// market's bar, window.first_bar + the window's bar, and its time.

// One line per fill: trade, bar, ISO time, symbol, reason, side, qty, price,
// fee, realized PnL, cash after.
void write_trade_log_csv(std::ostream& out, const Market& market, const MarketWindow& window,
                         const std::vector<FillRecord>& fills);

// One line per bar of the window: bar, ISO time, close-marked equity.
void write_equity_csv(std::ostream& out, const Market& market, const MarketWindow& window,
                      const std::vector<double>& equity);

// The stitched walk-forward path (Note [Stitched walk-forward path]): the
// same lines with the step and the combination that traded first; the
// equity with the step of each bar.
void write_stitched_trade_log_csv(std::ostream& out, const Market& market, const MarketWindow& window,
                                  const StitchedPath& path);
void write_stitched_equity_csv(std::ostream& out, const Market& market, const MarketWindow& window,
                               const StitchedPath& path);

const char* fill_reason_name(int reason);

}  // namespace btforge
