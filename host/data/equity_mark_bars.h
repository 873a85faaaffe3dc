#pragma once

#include <vector>

#include "host/data/market.h"
#include "host/data/market_window.h"

namespace btforge {

// The window's bars (counted from its first) after which a return stream's
// M parts end, as the kernels mark them: part i's last bar,
// (i + 1) * n / M - 1 (Note [Equity marks]), or with `daily` the last bar of
// each UTC day of the window that has one (Note [Equity marks at UTC days]),
// where M must be the number of those days. The reference's own functions
// decide, so the host's marks (the buy-and-hold benchmark's) fall on the
// kernels' bars. Throws std::invalid_argument for M outside 1..n, or a daily
// M that is not the window's number of days.
std::vector<int> equity_mark_bars(const Market& market, const MarketWindow& window, int parts, bool daily);

// The UTC days of the window that have a bar: the parts of a daily return
// stream (Note [Equity marks at UTC days]).
int utc_days_in_window(const Market& market, const MarketWindow& window);

}  // namespace btforge
