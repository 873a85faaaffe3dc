#include "host/spec/assignments.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "host/io/number_format.h"
#include "host/spec/spec_error.h"

namespace btforge {

namespace {

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

[[noreturn]] void reject(const std::string& origin, const std::string& expected, std::string_view text) {
    throw SpecError(origin, "", "expected " + expected + ", got \"" + std::string(text) + "\"");
}

double parse_assigned_value(const ParameterSpec& p, std::string_view text, const std::string& origin) {
    std::string bounds = "[";  // appended, not "[" + ...: see bounds_of in grid.cpp
    bounds += format_double(p.min);
    bounds += ", ";
    bounds += format_double(p.max);
    bounds += "]";
    if (p.type == ParameterType::Bool) {
        if (text == "true" || text == "1") return 1.0;
        if (text == "false" || text == "0") return 0.0;
        reject(origin, "true, false, 0 or 1 (" + p.name + " is a bool)", text);
    }
    const auto value = parse_finite_number(text);
    if (p.type == ParameterType::Int) {
        if (!value || std::floor(*value) != *value || *value < p.min || *value > p.max)
            reject(origin, "an integer within " + bounds + " (" + p.name + " is an int)", text);
    } else if (!value || *value < p.min || *value > p.max) {
        reject(origin, "a number within " + bounds + " (the bounds of " + p.name + ")", text);
    }
    return *value;
}

}  // namespace

std::optional<std::pair<std::string_view, std::string_view>> split_assignment(std::string_view text) {
    const auto equals = text.find('=');
    if (equals == std::string_view::npos) return std::nullopt;
    return std::pair{trim(text.substr(0, equals)), trim(text.substr(equals + 1))};
}

std::optional<double> parse_finite_number(std::string_view text) {
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

std::string format_parameter_value(const ParameterSpec& parameter, double value) {
    switch (parameter.type) {
        case ParameterType::Bool: return value != 0.0 ? "true" : "false";
        case ParameterType::Int:
            if (std::floor(value) == value && std::fabs(value) < 9.2e18)
                return std::to_string(static_cast<long long>(value));
            break;
        case ParameterType::Double: break;
    }
    return format_double(value);
}

std::vector<std::string> combination_assignments(const StrategySpec& spec, std::span<const double> values_in_spec_order) {
    if (values_in_spec_order.size() != spec.parameters.size())
        throw std::invalid_argument("combination_assignments: expected " + std::to_string(spec.parameters.size()) + " values");
    std::vector<std::string> assignments;
    assignments.reserve(spec.parameters.size());
    for (std::size_t i = 0; i < spec.parameters.size(); ++i)
        assignments.push_back(spec.parameters[i].name + "=" + format_parameter_value(spec.parameters[i], values_in_spec_order[i]));
    return assignments;
}

std::string describe_combination(const StrategySpec& spec, std::span<const double> values_in_spec_order,
                                 std::string_view separator) {
    std::string text;
    for (const auto& assignment : combination_assignments(spec, values_in_spec_order)) {
        if (!text.empty()) text += separator;
        text += assignment;
    }
    return text;
}

std::vector<double> values_from_assignments(const StrategySpec& spec, std::span<const std::string> assignments) {
    std::vector<double> values;
    values.reserve(spec.parameters.size());
    for (const auto& p : spec.parameters) values.push_back(p.default_value);
    std::vector<bool> assigned(spec.parameters.size(), false);

    for (const auto& assignment : assignments) {
        const std::string origin = "parameter assignment '" + assignment + "'";
        const auto split = split_assignment(assignment);
        if (!split) throw SpecError(origin, "", "expected name=value, got no '='");
        const auto [name, text] = *split;
        const auto index = spec.parameter_index(name);
        if (!index) {
            std::string names;
            for (const auto& p : spec.parameters) names += (names.empty() ? "" : ", ") + p.name;
            throw SpecError(origin, "",
                            "expected a parameter of strategy " + spec.name + " (" + names + "), got \"" + std::string(name) + "\"");
        }
        if (assigned[*index])
            throw SpecError(origin, "", "expected each parameter assigned once, got " + std::string(name) + " again");
        assigned[*index] = true;
        values[*index] = parse_assigned_value(spec.parameters[*index], text, origin);
    }
    return values;
}

}  // namespace btforge
