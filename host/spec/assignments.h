#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "host/spec/strategy_spec.h"

namespace btforge {

// Note [Parameter assignments]
// One combination written as "name=value" pairs, in spec order: what reports
// print next to a result and what a replay command takes back. Values print
// so that they read back exactly (format_double), ints without decimals,
// bools as true/false; so describing a combination and parsing the text again
// gives the same doubles, bit for bit.

std::string format_parameter_value(const ParameterSpec& parameter, double value);

// {"ema_fast=12", "sl_atr=2.5", "allow_short=true", ...}
std::vector<std::string> combination_assignments(const StrategySpec& spec, std::span<const double> values_in_spec_order);

// The assignments joined by `separator`.
std::string describe_combination(const StrategySpec& spec, std::span<const double> values_in_spec_order,
                                 std::string_view separator = " ");

// "name=value" split at its first '=', each side without surrounding blanks;
// nothing when there is no '='. (--set and --param options.)
std::optional<std::pair<std::string_view, std::string_view>> split_assignment(std::string_view text);

// A finite number written in full ("2.5", "1e-3", "-4"); nothing for any
// other text, "nan" and "inf" included.
std::optional<double> parse_finite_number(std::string_view text);

// Starts from the spec's defaults and applies each "name=value" in turn.
// Throws SpecError for a missing '=', an unknown or repeated name, a value of
// the wrong type (int: an integer; bool: true/false/0/1) or out of bounds.
std::vector<double> values_from_assignments(const StrategySpec& spec, std::span<const std::string> assignments);

}  // namespace btforge
