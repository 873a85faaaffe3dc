#pragma once

#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "host/spec/combination_space.h"
#include "host/spec/grid.h"
#include "host/spec/strategy_spec.h"
#include "host/strategies/strategy_binding.h"

namespace btforge {

// Which strategy, described by which spec, swept over which grid. Without
// --spec the spec built into the binary is used; without --grid the
// strategy's embedded quickstart grid (spec/grids/<strategy>_quickstart.json).
struct StrategyChoice {
    std::string strategy = "default";
    std::string spec_file;
    std::string grid_file;
};

boost::program_options::options_description strategy_options(StrategyChoice& choice, bool with_grid);

struct LoadedStrategy {
    StrategySpec spec;
    const StrategyBinding* binding = nullptr;
};

LoadedStrategy load_strategy(const StrategyChoice& choice);
// --grid, else the embedded spec/grids/<strategy>_<purpose>.json, else the
// strategy's quickstart grid, else the single combination of defaults.
Grid load_grid(const StrategyChoice& choice, const StrategySpec& spec, std::string_view purpose = "quickstart");

}  // namespace btforge
