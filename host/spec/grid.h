#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/spec/spec_error.h"
#include "host/spec/strategy_spec.h"

namespace btforge {

// One parameter's values in a sweep, in the order the grid lists them.
// Every value is within the parameter's [min, max], integral for int and 0/1
// for bool, and no value repeats.
struct GridAxis {
    std::size_t parameter = 0;  // index into StrategySpec::parameters
    std::vector<double> values;  // never empty
    std::string json_path;       // e.g. "/parameters/ema_fast"; empty when the spec default fills in
};

// Draw `count` distinct combinations uniformly from the grid's full space
// (see Note [Random combinations without materializing]).
struct RandomSampling {
    std::uint64_t count = 0;  // 1 <= count <= full size
    std::uint64_t seed = 0;
};

// A parsed grid file (SPEC §8). Like the strategy spec it is validated once
// and then read only through this model.
struct Grid {
    std::string strategy;         // equals the spec's name
    std::vector<GridAxis> axes;   // one per spec parameter, in spec order
    std::optional<RandomSampling> random;
    std::string origin;
};

// A grid file may not list more values than this for one parameter: the
// lists are materialized (the combinations never are), and a range with a
// tiny step is far more likely a typo than a wish for millions of values.
inline constexpr std::size_t kMaxValuesPerParameter = std::size_t{1} << 24;

// Throws SpecError ("grid.json: /parameters/ema_slow/range/step: expected a
// positive number, got 0") on the first problem found.
Grid parse_grid(std::string_view json_text, std::string origin, const StrategySpec& spec);

// The one combination made of every parameter's default.
Grid default_grid(const StrategySpec& spec);

}  // namespace btforge
