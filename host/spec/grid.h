#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "host/spec/account_settings.h"
#include "host/spec/spec_error.h"
#include "host/spec/strategy_spec.h"

namespace btforge {

// Note [Conditional axes]
// A parameter that the strategy reads only for some values of another (the
// default strategy's EMAs only in mode 0) multiplies identical results in
// the other cases (Note [Distinct outcomes]). Its axis may say so:
//   "ema_fast": {"values": [8, 12, 20], "when": {"mode": [0]}}
// or on the command line, --param "ema_fast=8,12,20 when mode=0". Where the
// condition holds the axis takes every value; elsewhere only its first, and
// those combinations are not run at all. The controlling parameter is
// another one whose axis has no condition of its own, and each value the
// condition names is one of that axis's values (a condition that never
// holds is a typo). Ids stay those of the whole product (a conditional
// grid's combinations are a subset of it, decoded as before); the run order
// is CombinationSpace's (Note [Mixed radix digit order]).
// `"when": "spec"` (--param "ema_fast=8,12,20 when spec") takes the
// condition from the spec's read_when claim, which btforge-gen proved
// against the reference (Note [Parameters a mode reads]): its values are
// the claim's that the controlling axis has (none: the axis is read nowhere
// in this grid and takes its first value throughout). A condition is
// `proven` when it keeps every value of the controlling axis where the spec
// says the parameter is read: then the combinations it leaves out give
// exactly the results of ones it runs. Any other condition is the user's
// choice of what to leave out, and the run header says so.
struct AxisCondition {
    std::size_t parameter = 0;   // the controlling parameter, index into StrategySpec::parameters
    std::vector<double> values;  // where the axis applies; values of the controlling axis
    std::string origin;          // the grid file, or the --param option
    std::string json_path;       // of the condition's values in it
    bool from_spec = false;      // "when": "spec"
    bool proven = false;         // leaves out only combinations that the spec proves repeat others
};

// One parameter's values in a sweep, in the order the grid lists them.
// Every value is within the parameter's [min, max], integral for int and 0/1
// for bool, and no value repeats.
struct GridAxis {
    std::size_t parameter = 0;  // index into StrategySpec::parameters
    std::vector<double> values;  // never empty
    std::string json_path;       // e.g. "/parameters/ema_fast"; empty when the spec default or a --param fills in
    std::optional<AxisCondition> when;  // Note [Conditional axes]
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
    AccountOverrides account;     // the grid's "account" block (Note [Account settings])
    std::string origin;           // the file, and the --param options when there are some
};

// A grid file may not list more values than this for one parameter: the
// lists are materialized (the combinations never are), and a range with a
// tiny step is far more likely a typo than a wish for millions of values.
inline constexpr std::size_t kMaxValuesPerParameter = std::size_t{1} << 24;

// Note [Grid axes on the command line]
// An option `--param NAME=TEXT` gives one parameter's axis as the grid file's
// "parameters" object would:
//   NAME=V                    V (a number; true/false/0/1 for a bool)
//   NAME=A,B,C                {"values": [A, B, C]}
//   NAME=START:STOP:STEP      {"range": {"start": START, "stop": STOP, "step": STEP}}
//   NAME=log:START:STOP:NUM   {"log_range": {"start": START, "stop": STOP, "num": NUM}}
//   any of these, then " when OTHER=V[,W...]": "when": {"OTHER": [V, W]}
//                             (Note [Conditional axes]), or " when spec":
//                             "when": "spec"
// The text becomes that JSON value and is read by the grid file's own code,
// so it obeys the same rules and gives the same values, and a rule it breaks
// is a SpecError naming the option and the field (exit status 1, as in a
// file). Only text that forms no such value is a ParamOptionSyntaxError (a
// usage error). An option replaces the axis the grid file gives its
// parameter; the random block is checked against the space that results.

class ParamOptionSyntaxError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// Throws SpecError ("grid.json: /parameters/ema_slow/range/step: expected a
// positive number, got 0") on the first problem found.
Grid parse_grid(std::string_view json_text, std::string origin, const StrategySpec& spec,
                std::span<const std::string> param_options = {});

// The one combination made of every parameter's default.
Grid default_grid(const StrategySpec& spec);

// Note [Conditional axes]: "ema_fast, ema_slow when mode=0 (proven by the
// spec's read_when: ...)", one clause per condition, for the run header;
// "" for a grid without conditions.
std::string describe_conditions(const Grid& grid, const StrategySpec& spec);

// The defaults with the axes of `param_options` (Note [Grid axes on the
// command line]), as a grid file listing only those would give.
Grid grid_from_param_options(const StrategySpec& spec, std::span<const std::string> param_options);

}  // namespace btforge
