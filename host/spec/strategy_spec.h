#pragma once

#include "reference/margin/margin_schedule.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "host/spec/indicator_signature.h"
#include "host/spec/spec_error.h"

namespace btforge {

// Note [The strategy spec model]
// A strategy spec (spec/*.json) is parsed and validated once, into the typed
// model below; the code generator, the grid parser and the engines read only
// this model, never the JSON. Every invariant listed on a field holds for any
// model returned by parse_strategy_spec, so readers do not re-check them.
// Each entity keeps the JSON pointer it came from (its `json_path`), so a
// later stage that rejects it can still point the user at the right line of
// the right file. The model is a plain value: build it with the parser and
// pass it around as `const StrategySpec&`.

enum class ParameterType { Int, Double, Bool };

std::string_view to_string(ParameterType type);  // "int", "double", "bool"

// Every value of an int parameter fits in an int32, so the generated parameter
// tables may hold it as one.
inline constexpr double kMinIntParameter = -2147483648.0;
inline constexpr double kMaxIntParameter = 2147483647.0;

// Note [Parameters a mode reads]
// A spec may claim that a parameter is read only where another takes some
// values (the default strategy reads its EMA periods only in mode 0):
//   {"name": "ema_fast", ..., "read_when": {"mode": [0]}}
// A series parameter's claim covers the series made from it too. btforge-gen
// proves every claim against the reference before it generates anything
// (generator/parameter_claims.h): each read of the field, or of a series an
// indicator makes from it, must sit where the reference's own tests of the
// controlling field (`if (p.mode == 0)`, an early return, `&&`, `?:`, through
// every call on the way from the strategy's entry) leave only the claimed
// values. A grid may then condition the axis on the claim ("when": "spec",
// Note [Conditional axes]): the combinations it leaves out would give
// exactly the results of the one it keeps.
// A controlling parameter takes at most this many values, so that the proof
// can follow each of them through the reference.
inline constexpr double kMaxControllingValues = 256;

struct ReadCondition {
    std::size_t parameter = 0;   // the controlling parameter: int or bool, not series, at most
                                 // kMaxControllingValues values, with no claim of its own
    std::vector<double> values;  // ascending, distinct, integral, within its [min, max], not all of them
    std::string json_path;       // e.g. "/parameters/0/read_when/mode"
};

struct ParameterSpec {
    std::string name;           // identifier, no "__", no C++ keyword; unique among parameters
    ParameterType type = ParameterType::Double;
    double default_value = 0;   // min <= default <= max; integral for int, 0 or 1 for bool
    double min = 0;             // bool: 0
    double max = 0;             // bool: 1
    bool series = false;        // changes an indicator series; then at least one indicator uses it
    std::string description;
    std::optional<ReadCondition> read_when;  // Note [Parameters a mode reads]
    std::string json_path;      // e.g. "/parameters/3"
};

// One argument of an indicator use: a spec parameter or a literal number.
struct IndicatorArg {
    std::string name;                      // the indicator's parameter name
    std::optional<std::size_t> parameter;  // index into StrategySpec::parameters (always a series parameter)
    double literal = 0;                    // the value when `parameter` is empty
};

struct IndicatorUse {
    std::string id;                  // identifier, no "__", no C++ keyword; unique among indicators
    std::string indicator;           // a name of the catalog, e.g. "BBANDS"
    std::string output;              // one of its outputs (the first when the spec names none)
    // The price column a one-input indicator reads: the spec's "input", or
    // the indicator's own (Note [Indicator input column]); empty for an
    // indicator of several inputs.
    std::string input;
    std::vector<IndicatorArg> args;  // exactly the signature's params, in the signature's order
    std::string json_path;           // e.g. "/indicators/1"
};

// Money amounts are multiples of 2^-40 (Note [Accounting quantum]); up
// to 1e12 a double still resolves 1e-4 (a hundredth of a cent), beyond it the
// cash would visibly lose cents, so a larger initial equity is refused.
inline constexpr double kMaxInitialEquity = 1e12;

struct AccountSpec {
    double initial_equity = 10000;  // in (0, kMaxInitialEquity]
    double maker_fee = 0.0002;      // fractions of notional, each in [0, 0.1)
    double taker_fee = 0.0005;
    double slippage = 0.0002;
    MarginMode margin_mode = kCrossMargin;  // Note [Cross and isolated margin]
};

struct StrategySpec {
    std::string name;  // identifier [a-z][a-z0-9_]* (may be a C++ keyword: "default")
    std::string description;
    AccountSpec account;
    std::vector<ParameterSpec> parameters;
    std::vector<IndicatorUse> indicators;
    std::string origin;  // the file it came from, or "<embedded default>"

    std::optional<std::size_t> parameter_index(std::string_view parameter_name) const;
    std::optional<std::size_t> indicator_index(std::string_view indicator_id) const;
};

// Throws SpecError ("origin: /json/pointer: expected ..., got ...") on the
// first problem found.
StrategySpec parse_strategy_spec(std::string_view json_text, std::string origin,
                                 std::span<const IndicatorSignature> catalog);

}  // namespace btforge
