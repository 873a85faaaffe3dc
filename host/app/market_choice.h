#pragma once

#include <memory>
#include <string>
#include <vector>

#include "host/data/market.h"

namespace btforge {

// The options every data-reading command shares: a CSV (with an optional
// instruments file and symbol filter) or, by default, the seeded synthetic
// market that makes a first run need no data.
struct MarketChoice {
    std::string data_file;
    // The long CSV in memory instead of the file data_file, which then only
    // names it in messages (Python's Market.from_pandas); never cached.
    std::shared_ptr<const std::vector<char>> data_text;
    std::string instruments_file;
    std::string symbols;  // comma-separated filter
    std::string timestamp_unit = "auto";  // of integer timestamps: auto|s|ms|us|ns
    std::string funding_file;  // Note [Funding history]
    std::string intrabar_file;  // finer bars of the same symbols (Note [Finer bars])
    std::string mark_file;      // the mark price's bars of the same symbols (Note [Mark price])
    bool market_cache = true;  // Note [Market cache]
    double funding_rate = 0.0001;
    double funding_interval_hours = 8.0;
    unsigned long long synthetic_seed = 42;
    int synthetic_symbols = 4;
    int synthetic_bars = 17520;
    int synthetic_bar_minutes = 60;
};

struct LoadedMarket {
    Market market;
    // The options that loaded it, without data_text (Note [Inputs of a run]).
    MarketChoice choice;
    std::string description;  // for reports: the file, or the synthetic recipe
    // "integer timestamps read as epoch seconds (detected ...)" when the unit
    // of --data's integer timestamps was detected; empty otherwise. For the
    // run header (Note [Run header]).
    std::string timestamp_note;
    // --data: how it was loaded (Note [Market cache]), for the run header only.
    std::string loading_note;
    // Where the funding rates come from and what they are, in words, with the
    // option that changes them (Note [Run header]).
    std::string funding_note;
    // Note [Instruments stated]: where each symbol's trading sizes come from
    // ("the file inst.json", "the defaults: no --instruments given", "the
    // synthetic market's own") and the sizes themselves.
    std::string instruments_source;
    // True for the embedded synthetic market (Note [Synthetic market said
    // plainly]).
    bool synthetic = false;
};

// Note [Instruments stated]
// Quantity steps, minimum quantities and price ticks change every fill, and
// a market given without its instruments file trades at defaults that fit
// no real exchange: a user who left out --instruments (or a DataFrame that
// carried none) got other numbers without a word. So every run says where
// its instruments came from and what they are, in the run header (one line,
// the first symbols' sizes), the result JSON ("instruments": source and
// every symbol's sizes) and the report.
std::string describe_instruments(const LoadedMarket& market, std::size_t max_symbols);

// Throws DataError with the file, line and rule for bad data, and
// UsageError for option values outside their range
// (Note [Market value limits]).
LoadedMarket load_market(const MarketChoice& choice);

}  // namespace btforge
