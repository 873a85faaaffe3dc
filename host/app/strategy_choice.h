#pragma once

#include <string>
#include <vector>

#include "host/spec/combination_space.h"
#include "host/spec/grid.h"
#include "host/spec/strategy_spec.h"
#include "host/strategies/strategy_binding.h"

namespace btforge {

// Which strategy, described by which spec, swept over which grid. Without
// --spec the spec built into the binary is used; without --grid the
// strategy's embedded quickstart grid (spec/grids/<strategy>_quickstart.json),
// or, when --param options are given, the spec's defaults with their axes.
struct StrategyChoice {
    std::string strategy = "default";
    std::string spec_file;
    std::string grid_file;
    // A grid document in memory instead of grid_file (Python's grid dicts),
    // named grid_text_origin in messages.
    std::string grid_text;
    std::string grid_text_origin = "<grid>";
    std::vector<std::string> param_options;  // Note [Grid axes on the command line]
};

// The options that select the same strategy and grid again, for a printed
// command: " --strategy default --grid g.json --param sl_atr=1,2".
std::string strategy_arguments(const StrategyChoice& choice);

struct LoadedStrategy {
    StrategySpec spec;
    std::string spec_text;  // the spec document as read (for a run's identity, Note [Shards])
    const StrategyBinding* binding = nullptr;
};

LoadedStrategy load_strategy(const StrategyChoice& choice);
// --grid (with the --param axes), else the --param axes alone, else the
// embedded spec/grids/<strategy>_<purpose>.json, else the strategy's
// quickstart grid, else the single combination of defaults. A --param text
// that forms no grid value is a usage error (UsageError).
Grid load_grid(const StrategyChoice& choice, const StrategySpec& spec, std::string_view purpose = "quickstart");

}  // namespace btforge
