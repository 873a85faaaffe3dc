#pragma once

#include <vector>

#include "host/data/market.h"
#include "host/data/market_window.h"

namespace btforge {

// Note [Buy-and-hold benchmark]
// The passive alternative to a strategy, as --spa-benchmark hold tests
// against (Note [Reality Check, SPA and StepM]): the initial equity split
// equally among the symbols that trade in the window, each share bought at
// its symbol's first tradable bar's open in the window and held to the end,
// without fees, slippage, funding, leverage or rebalancing. Its equity is
// marked where a strategy's is (Note [Equity marks]): after each of
// `mark_bars` (equity_mark_bars: the last bar of each of M parts of the
// window, or of each UTC day), each share valued at the close of its
// symbol's last tradable bar at or before that bar, and at its cost before
// the symbol's first bar. The benchmark's return stream comes from these
// marks as a strategy's does (Note [Return streams from equity marks]).
// Without a symbol that trades in the window every mark is the initial
// equity (cash).
std::vector<double> buy_and_hold_marks(const Market& market, const MarketWindow& window,
                                       const std::vector<int>& mark_bars, double initial_equity);

}  // namespace btforge
