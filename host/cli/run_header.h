#pragma once

#include <cstdint>
#include <string>

#include "host/cli/market_options.h"
#include "host/data/market_window.h"
#include "host/report/results_writer.h"
#include "host/spec/strategy_spec.h"

namespace btforge {

// Note [Run header]
// Before a sweep, replay or benchmark works, it says on stderr every
// assumption that changes its results, one per line: the market (the
// embedded synthetic one or a file, its size and time span, the timestamp
// unit when it was detected), where funding comes from and what it charges
// (a CSV without a funding_rate column is charged --funding-rate, 0.01% per
// 8 h by default, which spot data must turn off with --funding-rate 0), and
// the account: initial equity, maker and taker fees, slippage. The same
// facts go into the result JSON.
struct RunAssumptions {
    std::string market;
    std::string timestamps;  // empty unless the unit was detected
    std::string loading;     // --data: parsed or read from its cache, and how long (Note [Market cache])
    std::string window;      // the evaluated bars and the warm-up before them (Note [Market windows])
    std::string funding;
    std::string account;
};

RunAssumptions describe_assumptions(const LoadedMarket& market, const MarketWindow& window, const AccountSpec& account);

// The window as the result JSON states it.
WindowFacts window_facts(const Market& market, const MarketWindow& window);

// "  market:   ...\n  funding:  ...\n  account:  ...\n"
std::string format_assumptions(const RunAssumptions& assumptions);

}  // namespace btforge
