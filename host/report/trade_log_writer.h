#pragma once

#include <ostream>
#include <vector>

#include "host/data/market.h"
#include "reference/portfolio/fill_log.h"

namespace btforge {

// One line per fill: trade, bar, ISO time, symbol, reason, side, qty, price,
// fee, realized PnL, cash after.
void write_trade_log_csv(std::ostream& out, const Market& market, const std::vector<FillRecord>& fills);

// One line per bar: bar, ISO time, close-marked equity.
void write_equity_csv(std::ostream& out, const Market& market, const std::vector<double>& equity);

const char* fill_reason_name(int reason);

}  // namespace btforge
