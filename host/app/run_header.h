#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "host/app/market_choice.h"
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
    std::string instruments;  // Note [Instruments stated]
    std::string account;
    bool synthetic = false;   // Note [Synthetic market said plainly]
};

// Note [Synthetic market said plainly]
// Without --data a run uses the embedded synthetic market, so that a first
// run needs no data. A user who forgot --data (or a replay command copied
// without its market options) must not read those numbers as results on
// their own data: the run header's market line is easy to miss, so the
// header adds a line of its own, the sweep and replay print kSyntheticMarketNote
// again after their results on stdout, and the result JSON says
// "synthetic_market": true, which the report shows as a banner.
extern const char* const kSyntheticMarketNote;

// The "instruments" object of the result JSON: where the sizes came from and
// every symbol's (Note [Instruments stated]).
nlohmann::ordered_json instruments_json(const LoadedMarket& market);

RunAssumptions describe_assumptions(const LoadedMarket& market, const MarketWindow& window, const AccountSpec& account);

// The window as the result JSON states it.
WindowFacts window_facts(const Market& market, const MarketWindow& window);

// "  market:   ...\n  funding:  ...\n  account:  ...\n"
std::string format_assumptions(const RunAssumptions& assumptions);

}  // namespace btforge
