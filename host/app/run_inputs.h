#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "host/app/account_choice.h"
#include "host/app/market_choice.h"
#include "host/app/strategy_choice.h"
#include "host/app/window_choice.h"

namespace btforge {

// The options that choose a run's inputs: the strategy and grid, the
// market, the window and the account. What a sweep records and what a
// replay of one of its rows needs.
struct RunInputs {
    StrategyChoice strategy;
    MarketChoice market;
    WindowChoice window;
    AccountChoice account;
};

// Note [Inputs of a run]
// The result JSON's "inputs" are the options that ran the sweep, keyed by
// their command-line names with '_' for '-' (the keys of the Python
// package's option dicts), files as absolute paths: what a report needs to
// replay a row, what `btforge replay --from RESULTS.json` runs again (Note
// [Replaying a row from its results]), and what a later run must match to be
// the same run. Options left at their defaults are left out; a market or
// grid that lived only in memory (a DataFrame, a grid dict) is named by its
// placeholder ("data": "<DataFrame>") and its grid document kept as
// "grid_text". run_inputs_json writes them, run_inputs_from_json reads them
// back: one mapping, both directions.
nlohmann::ordered_json run_inputs_json(const RunInputs& inputs);

// The inverse of run_inputs_json. Throws std::runtime_error naming `origin`
// and the JSON path for a key it does not know or a value of the wrong type
// (a file written by another btforge, or edited).
RunInputs run_inputs_from_json(const nlohmann::json& inputs, const std::string& origin);

}  // namespace btforge
