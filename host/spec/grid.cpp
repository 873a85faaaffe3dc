#include "host/spec/grid.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

#include "host/spec/assignments.h"
#include "host/spec/combination_space.h"
#include "host/spec/json_input.h"
#include "host/io/number_format.h"

namespace btforge {

namespace {

using spec_detail::JsonNode;

std::string bounds_of(const ParameterSpec& p) {
    // Appended piece by piece: "[" + std::string&& trips GCC 12's false
    // -Wrestrict positive (GCC bug 105651).
    std::string text = "[";
    text += format_double(p.min);
    text += ", ";
    text += format_double(p.max);
    text += "] (the bounds of ";
    text += p.name;
    text += ")";
    return text;
}

// A single grid value as written in the file.
double parse_value(const JsonNode& node, const ParameterSpec& p) {
    const auto& j = node.json();
    switch (p.type) {
        case ParameterType::Bool:
            if (j.is_boolean()) return j.get<bool>() ? 1.0 : 0.0;
            if (j.is_number() && (j.get<double>() == 0.0 || j.get<double>() == 1.0)) return j.get<double>();
            node.fail("true, false, 0 or 1 (" + p.name + " is a bool)");
        case ParameterType::Int:
            if (!j.is_number() || std::floor(j.get<double>()) != j.get<double>())
                node.fail("an integer (" + p.name + " is an int)");
            break;
        case ParameterType::Double:
            if (!j.is_number()) node.fail("a number (" + p.name + " is a double)");
            break;
    }
    const double value = j.get<double>();
    if (value < p.min || value > p.max) node.fail("a value within " + bounds_of(p));
    return value;
}

// Note [Repeated grid values]
// A value listed twice would run the same combinations twice. Values are
// checked one by one first (type, bounds), then repeats are found by sorting
// the indices by value, so a list of millions of values costs n log n, not
// n^2. The message names the first element (in list order) that repeats an
// earlier value, and the first element holding that value.
std::vector<double> parse_values(const JsonNode& node, const ParameterSpec& p) {
    const std::size_t n = node.expect_array("a non-empty array of values");
    if (n == 0) node.fail("a non-empty array of values");
    if (n > kMaxValuesPerParameter) node.fail("at most " + std::to_string(kMaxValuesPerParameter) + " values");
    std::vector<double> values;
    values.reserve(n);
    for (std::size_t i = 0; i < n; ++i) values.push_back(parse_value(node.element(i), p));

    static_assert(kMaxValuesPerParameter <= UINT32_MAX, "indices are held as uint32");
    std::vector<std::uint32_t> by_value(n);
    for (std::size_t i = 0; i < n; ++i) by_value[i] = static_cast<std::uint32_t>(i);
    std::sort(by_value.begin(), by_value.end(), [&](std::uint32_t a, std::uint32_t b) {
        return values[a] < values[b] || (values[a] == values[b] && a < b);
    });
    std::optional<std::pair<std::size_t, std::size_t>> repeat;  // (repeating element, first element)
    for (std::size_t k = 1; k < n; ++k) {
        // Within a run of equal values the first index is the first
        // occurrence and the second one the first repeat of it.
        if (values[by_value[k]] != values[by_value[k - 1]] || (k >= 2 && values[by_value[k - 2]] == values[by_value[k]]))
            continue;
        if (!repeat || by_value[k] < repeat->first) repeat = std::pair<std::size_t, std::size_t>{by_value[k], by_value[k - 1]};
    }
    if (repeat)
        node.element(repeat->first)
            .fail("a value not listed before", format_double(values[repeat->first]) + " again (already at " +
                                                   spec_detail::json_pointer_child(node.pointer(), repeat->second) + ")");
    return values;
}

void reject_for_bool(const JsonNode& node, const ParameterSpec& p, std::string_view kind) {
    if (p.type == ParameterType::Bool)
        node.fail("\"values\" or a single value (" + p.name + " is a bool)", "\"" + std::string(kind) + "\"");
}

std::vector<double> parse_range(const JsonNode& node, const ParameterSpec& p) {
    reject_for_bool(node, p, "range");
    node.expect_object("an object with start, stop and step");
    node.allow_only_keys({"start", "stop", "step"});
    const JsonNode start_node = node.require("start");
    const JsonNode stop_node = node.require("stop");
    const JsonNode step_node = node.require("step");
    const double start = start_node.as_number();
    const double stop = stop_node.as_number();
    const double step = step_node.as_number();
    if (!(step > 0.0)) step_node.fail("a positive number");
    if (stop < start) stop_node.fail("a number >= start (" + format_double(start) + ")");
    if (p.type == ParameterType::Int) {
        if (std::floor(start) != start) start_node.fail("an integer (" + p.name + " is an int)");
        if (std::floor(step) != step) step_node.fail("an integer (" + p.name + " is an int)");
    }
    // The stop is inclusive up to 1e-9 of a step, which is 1e-9 in units of
    // the index, so 0.1..0.3 by 0.1 has three values although
    // (0.3 - 0.1) / 0.1 = 1.9999999999999998.
    const double last_index = std::floor((stop - start) / step + 1e-9);
    if (!(last_index < static_cast<double>(kMaxValuesPerParameter)))
        step_node.fail("a step giving at most " + std::to_string(kMaxValuesPerParameter) + " values",
                       format_double(step) + ", which gives " + format_double(last_index + 1.0));
    const auto n = static_cast<std::size_t>(last_index) + 1;
    std::vector<double> values(n);
    for (std::size_t i = 0; i < n; ++i) {
        // start + i*step, not repeated addition, so the error does not grow
        // along the range. Only a last value that the tolerance let past stop
        // is pulled back onto it: it would otherwise lie outside the bounds a
        // user wrote "stop": max to stay within.
        values[i] = std::min(start + static_cast<double>(i) * step, stop);
    }
    if (values.front() < p.min || values.front() > p.max) start_node.fail("a value within " + bounds_of(p));
    if (values.back() > p.max)
        stop_node.fail("a stop whose range stays within " + bounds_of(p),
                       values.back() == stop ? format_double(stop)
                                             : format_double(stop) + ", whose range ends at " + format_double(values.back()));
    for (std::size_t i = 1; i < n; ++i)
        if (!(values[i] > values[i - 1]))
            step_node.fail("a step that separates consecutive values", format_double(step) + ", too small against " +
                                                                           format_double(start) + " to change it");
    return values;
}

std::vector<double> parse_log_range(const JsonNode& node, const ParameterSpec& p) {
    reject_for_bool(node, p, "log_range");
    node.expect_object("an object with start, stop and num");
    node.allow_only_keys({"start", "stop", "num"});
    const JsonNode start_node = node.require("start");
    const JsonNode stop_node = node.require("stop");
    const JsonNode num_node = node.require("num");
    const double start = start_node.as_number();
    const double stop = stop_node.as_number();
    if (!(start > 0.0)) start_node.fail("a positive number");
    if (!(stop > 0.0)) stop_node.fail("a positive number");
    if (!(stop > start)) stop_node.fail("a number > start (" + format_double(start) + ")");
    const std::uint64_t num = num_node.as_unsigned("an integer >= 2");
    if (num < 2) num_node.fail("an integer >= 2");
    if (num > kMaxValuesPerParameter) num_node.fail("at most " + std::to_string(kMaxValuesPerParameter));

    // The values grow from start to stop, so checking both ends (as rounded
    // for an int) checks them all.
    auto as_value = [&](double x) { return p.type == ParameterType::Int ? std::round(x) : x; };
    for (const auto& [node_of_end, end] : {std::pair{&start_node, start}, std::pair{&stop_node, stop}}) {
        const double value = as_value(end);
        if (value < p.min || value > p.max)
            node_of_end->fail("a value within " + bounds_of(p),
                              value == end ? format_double(end) : format_double(end) + ", which rounds to " + format_double(value));
    }

    std::vector<double> values;
    values.reserve(num);
    const double ratio = stop / start;
    for (std::uint64_t i = 0; i < num; ++i) {
        // The end points are the numbers the user wrote, exactly; only the
        // interior is computed.
        const double value = as_value(
            i == 0       ? start
            : i + 1 == num ? stop
                           : start * std::pow(ratio, static_cast<double>(i) / static_cast<double>(num - 1)));
        if (!values.empty() && value <= values.back()) continue;  // rounding merged neighbours
        values.push_back(value);
    }
    return values;
}

std::vector<double> parse_axis(const JsonNode& node, const ParameterSpec& p) {
    const auto& j = node.json();
    if (j.is_number() || j.is_boolean()) return {parse_value(node, p)};
    constexpr std::string_view kExpected = "a number, a bool, or an object with one of the keys values, range, log_range";
    if (!j.is_object()) node.fail(kExpected);
    node.allow_only_keys({"values", "range", "log_range", "when"});
    if (j.size() - (j.contains("when") ? 1 : 0) != 1) {
        node.fail("an object with exactly one of the keys values, range, log_range (and maybe when)");
    }
    if (auto values = node.find("values")) return parse_values(*values, p);
    if (auto range = node.find("range")) return parse_range(*range, p);
    return parse_log_range(*node.find("log_range"), p);
}

// Note [Conditional axes]: the "when" object of an axis, its values read
// as the controlling parameter's (checked against its axis later).
std::optional<AxisCondition> parse_condition(const JsonNode& axis, const StrategySpec& spec, std::size_t self) {
    if (!axis.json().is_object()) return std::nullopt;
    const auto when = axis.find("when");
    if (!when) return std::nullopt;
    if (when->json().is_string() && when->json().get_ref<const std::string&>() == "spec") {
        // Note [Parameters a mode reads]: the values are resolved against
        // the controlling axis once every axis is known.
        const ParameterSpec& self_spec = spec.parameters[self];
        if (!self_spec.read_when) {
            when->fail("a parameter the spec claims is read only for some values of another (\"read_when\" in " +
                           spec.origin + ")",
                       "\"spec\" for " + self_spec.name + ", which has no such claim");
        }
        AxisCondition condition;
        condition.parameter = self_spec.read_when->parameter;
        condition.values = self_spec.read_when->values;
        condition.origin = axis.origin();
        condition.json_path = when->pointer();
        condition.from_spec = true;
        return condition;
    }
    when->expect_object("an object naming one parameter and its values, e.g. {\"mode\": [0]}, or \"spec\"");
    if (when->json().size() != 1) when->fail("an object naming exactly one parameter and its values");
    const auto entry = when->json().begin();
    const std::string name = entry.key();
    const JsonNode values(entry.value(), spec_detail::json_pointer_child(when->pointer(), name), axis.origin());
    const auto index = spec.parameter_index(name);
    if (!index) values.fail("a parameter of strategy " + spec.name, "unknown key \"" + name + "\"");
    if (*index == self) values.fail("another parameter than the axis's own");
    AxisCondition condition;
    condition.parameter = *index;
    condition.values = values.json().is_array() ? parse_values(values, spec.parameters[*index])
                                                : std::vector<double>{parse_value(values, spec.parameters[*index])};
    condition.origin = axis.origin();
    condition.json_path = values.pointer();
    return condition;
}

std::string parameter_names(const StrategySpec& spec) {
    std::string names;
    for (const auto& p : spec.parameters) names += (names.empty() ? "" : ", ") + p.name;
    return names;
}

// The size of the grid's space; the grid is refused when it exceeds 2^63.
std::uint64_t checked_space_size(const Grid& grid, const std::string& origin, const std::string& json_pointer) {
    const auto full_size = combination_space_size(grid);
    if (!full_size)
        throw SpecError(origin, json_pointer,
                        "expected a combination space of at most 2^63 combinations, got more (the product of the "
                        "numbers of values overflows)");
    return *full_size;
}

bool conditional(const Grid& grid) {
    return std::any_of(grid.axes.begin(), grid.axes.end(), [](const GridAxis& a) { return a.when.has_value(); });
}

// The number of combinations the grid runs (Note [Conditional axes]); the
// grid is refused when its conditions make too many cases to enumerate.
std::uint64_t checked_conditional_size(const Grid& grid, const std::string& origin) {
    try {
        return conditional_space_size(grid);
    } catch (const std::length_error& e) {
        throw SpecError(origin, "/parameters", e.what());
    }
}

// Note [Grid axes on the command line]: the JSON value that the text after
// "NAME=" stands for. `option` ("--param NAME=TEXT") names the errors.
nlohmann::json param_option_value(std::string_view text, const std::string& option) {
    auto syntax_error = [&](std::string_view expected, std::string_view got) {
        return ParamOptionSyntaxError(option + ": expected " + std::string(expected) + ", got \"" + std::string(got) + "\"");
    };
    auto scalar = [&](std::string_view piece) -> nlohmann::json {
        if (piece == "true") return true;
        if (piece == "false") return false;
        const auto value = parse_finite_number(piece);
        if (!value) throw syntax_error("a number, true or false", piece);
        // Whole numbers as the JSON integers a file's parser would make
        // (unsigned when not negative), so that they read the same and an
        // error quotes "5", not "5.0".
        if (std::floor(*value) == *value && std::fabs(*value) < 0x1p53) {
            if (*value >= 0.0) return static_cast<std::uint64_t>(*value);
            return static_cast<std::int64_t>(*value);
        }
        return *value;
    };
    auto pieces = [&](std::string_view list, char separator, std::size_t count, std::string_view form) {
        std::vector<nlohmann::json> out;
        for (std::size_t begin = 0;;) {
            const std::size_t end = std::min(list.find(separator, begin), list.size());
            const std::string_view piece = list.substr(begin, end - begin);
            const auto first = piece.find_first_not_of(" \t");
            if (first == std::string_view::npos) throw syntax_error(form, text);
            out.push_back(scalar(piece.substr(first, piece.find_last_not_of(" \t") - first + 1)));
            if (end == list.size()) break;
            begin = end + 1;
        }
        if (count != 0 && out.size() != count) throw syntax_error(form, text);
        return out;
    };
    constexpr std::string_view kLogPrefix = "log:";
    if (text.substr(0, kLogPrefix.size()) == kLogPrefix) {
        const auto p = pieces(text.substr(kLogPrefix.size()), ':', 3, "log:START:STOP:NUM");
        return {{"log_range", {{"start", p[0]}, {"stop", p[1]}, {"num", p[2]}}}};
    }
    if (text.find(':') != std::string_view::npos) {
        const auto p = pieces(text, ':', 3, "START:STOP:STEP");
        return {{"range", {{"start", p[0]}, {"stop", p[1]}, {"step", p[2]}}}};
    }
    if (text.find(',') != std::string_view::npos) return {{"values", pieces(text, ',', 0, "values A,B,C")}};
    return scalar(text);
}

// Replaces the axis of each option's parameter (Note [Grid axes on the
// command line]).
void apply_param_options(Grid& grid, const StrategySpec& spec, std::span<const std::string> param_options) {
    std::vector<bool> given(spec.parameters.size(), false);
    for (const std::string& text : param_options) {
        const std::string option = "--param " + text;
        const auto split = split_assignment(text);
        if (!split || split->first.empty() || split->second.empty())
            throw ParamOptionSyntaxError(option +
                                         ": expected NAME=V, NAME=A,B,C, NAME=START:STOP:STEP or NAME=log:START:STOP:NUM");
        const auto [name, axis_text] = *split;
        // Note [Conditional axes]: "TEXT when OTHER=V,W".
        constexpr std::string_view kWhen = " when ";
        const std::size_t when_at = axis_text.find(kWhen);
        const std::string_view value_text = axis_text.substr(0, when_at);
        const auto index = spec.parameter_index(name);
        if (!index)
            throw SpecError(option, "",
                            "expected a parameter of strategy " + spec.name + " (" + parameter_names(spec) + "), got \"" +
                                std::string(name) + "\"");
        if (given[*index])
            throw SpecError(option, "", "expected one --param per parameter, got " + std::string(name) + " again");
        given[*index] = true;
        nlohmann::json value = param_option_value(value_text, option);
        if (when_at != std::string_view::npos) {
            const std::string_view condition_text = axis_text.substr(when_at + kWhen.size());
            if (!value.is_object()) value = {{"values", nlohmann::json::array({value})}};
            if (condition_text == "spec") {
                value["when"] = "spec";
            } else {
                const auto condition = split_assignment(condition_text);
                if (!condition || condition->first.empty() || condition->second.empty()) {
                    throw ParamOptionSyntaxError(option +
                                                 ": expected NAME=VALUES when OTHER=V, OTHER=V,W,... or spec");
                }
                const nlohmann::json on = param_option_value(condition->second, option);
                if (on.is_object() && !on.contains("values")) {
                    throw ParamOptionSyntaxError(option +
                                                 ": expected the condition's values as OTHER=V or OTHER=V,W,..., "
                                                 "not a range");
                }
                value["when"] = {{std::string(condition->first), on.is_object() ? on["values"] : on}};
            }
        }
        const JsonNode node(value, "", option);
        grid.axes[*index].values = parse_axis(node, spec.parameters[*index]);
        grid.axes[*index].when = parse_condition(node, spec, *index);
        grid.axes[*index].json_path.clear();
    }
}

// Note [Conditional axes]: each condition's controlling axis has no
// condition of its own and takes every value the condition names; a
// condition from the spec keeps the claim's values that the axis has; and
// each condition is proven or not (Note [Parameters a mode reads]).
void resolve_conditions(Grid& grid, const StrategySpec& spec) {
    for (GridAxis& axis : grid.axes) {
        if (!axis.when) continue;
        AxisCondition& when = *axis.when;
        const GridAxis& controller = grid.axes[when.parameter];
        const std::string& origin = when.origin;
        if (controller.when) {
            throw SpecError(origin, when.json_path,
                            "expected a parameter without a condition of its own, got " +
                                spec.parameters[when.parameter].name + ", whose axis has one");
        }
        const std::optional<ReadCondition>& claim = spec.parameters[axis.parameter].read_when;
        const auto claimed = [&](double v) {
            return std::find(claim->values.begin(), claim->values.end(), v) != claim->values.end();
        };
        if (when.from_spec) {
            when.values.clear();
            for (double v : controller.values) {
                if (claimed(v)) when.values.push_back(v);
            }
            when.proven = true;
            continue;
        }
        if (claim && claim->parameter == when.parameter) {
            when.proven = std::all_of(controller.values.begin(), controller.values.end(), [&](double v) {
                return !claimed(v) || std::find(when.values.begin(), when.values.end(), v) != when.values.end();
            });
        }
        for (double v : when.values) {
            if (std::find(controller.values.begin(), controller.values.end(), v) == controller.values.end()) {
                std::string listed;
                for (double c : controller.values) listed += (listed.empty() ? "" : ", ") + format_double(c);
                throw SpecError(origin, when.json_path,
                                "expected values of the grid's axis of " + spec.parameters[when.parameter].name + " (" +
                                    listed + "), got " + format_double(v) + ": the condition would never hold there");
            }
        }
    }
}

// "<base> with --param a=1 --param b=2,3", or `base` without options.
std::string origin_with_param_options(std::string base, std::span<const std::string> param_options) {
    for (std::size_t i = 0; i < param_options.size(); ++i) {
        base += i == 0 ? (base.empty() ? "--param " : " with --param ") : " --param ";
        base += param_options[i];
    }
    return base;
}

}  // namespace

Grid parse_grid(std::string_view json_text, std::string origin, const StrategySpec& spec,
                std::span<const std::string> param_options) {
    const nlohmann::json document = spec_detail::parse_json_document(json_text, origin);
    const JsonNode root(document, "", origin);
    root.expect_object("a grid object");
    root.allow_only_keys({"strategy", "parameters", "random", "account"});

    Grid grid = default_grid(spec);
    const JsonNode strategy = root.require("strategy");
    grid.strategy = strategy.as_string();
    if (grid.strategy != spec.name) strategy.fail("\"" + spec.name + "\" (the strategy of " + spec.origin + ")");

    if (auto params = root.find("parameters")) {
        params->expect_object("an object mapping parameter names to values");
        for (const auto& [name, value] : params->json().items()) {
            const JsonNode node(value, spec_detail::json_pointer_child(params->pointer(), name), origin);
            const auto index = spec.parameter_index(name);
            if (!index)
                node.fail("a parameter of strategy " + spec.name + " (" + parameter_names(spec) + ")",
                          "unknown key \"" + name + "\"");
            grid.axes[*index].values = parse_axis(node, spec.parameters[*index]);
            grid.axes[*index].when = parse_condition(node, spec, *index);
            grid.axes[*index].json_path = node.pointer();
        }
    }
    apply_param_options(grid, spec, param_options);
    resolve_conditions(grid, spec);

    checked_space_size(grid, origin, "/parameters");
    const std::uint64_t full_size = checked_conditional_size(grid, origin);

    if (auto random = root.find("random")) {
        random->expect_object("an object with count and seed");
        random->allow_only_keys({"count", "seed"});
        const JsonNode count = random->require("count");
        const JsonNode seed = random->require("seed", "so that the sample can be drawn again");
        RandomSampling sampling;
        sampling.count = count.as_unsigned("an integer >= 1");
        if (sampling.count == 0) count.fail("an integer >= 1");
        if (sampling.count > full_size)
            count.fail("at most " + std::to_string(full_size) + " (the size of the grid's combination space" +
                       (conditional(grid) ? ", its conditions applied)" : ")"));
        sampling.seed = seed.as_unsigned();
        grid.random = sampling;
    }

    // Note [Account settings]
    if (auto account = root.find("account")) grid.account = spec_detail::parse_account_block(*account);

    grid.origin = origin_with_param_options(std::move(origin), param_options);
    return grid;
}

Grid default_grid(const StrategySpec& spec) {
    Grid grid;
    grid.strategy = spec.name;
    grid.origin = spec.origin;
    grid.axes.reserve(spec.parameters.size());
    for (std::size_t i = 0; i < spec.parameters.size(); ++i)
        grid.axes.push_back(GridAxis{i, {spec.parameters[i].default_value}, "", std::nullopt});
    return grid;
}

std::string describe_conditions(const Grid& grid, const StrategySpec& spec) {
    std::string proven;
    std::string chosen;
    for (const GridAxis& axis : grid.axes) {
        if (!axis.when) continue;
        const AxisCondition& when = *axis.when;
        std::string values;
        for (double v : when.values) values += (values.empty() ? "" : ",") + format_double(v);
        std::string& list = when.proven ? proven : chosen;
        list += (list.empty() ? "" : ", ") + spec.parameters[axis.parameter].name + " when " +
                spec.parameters[when.parameter].name + "=" + (values.empty() ? "(no value of this grid)" : values);
    }
    std::string text;
    if (!proven.empty()) {
        text += proven + " (proven by the spec's read_when, checked against the reference: the combinations left out "
                         "repeat ones that run)";
    }
    if (!chosen.empty()) {
        text += (text.empty() ? "" : "; ") + chosen +
                " (not proven by the spec: the combinations left out may give other results)";
    }
    return text;
}

Grid grid_from_param_options(const StrategySpec& spec, std::span<const std::string> param_options) {
    Grid grid = default_grid(spec);
    apply_param_options(grid, spec, param_options);
    if (!param_options.empty()) grid.origin = origin_with_param_options("", param_options);
    resolve_conditions(grid, spec);
    checked_space_size(grid, grid.origin, "");
    checked_conditional_size(grid, grid.origin);
    return grid;
}

}  // namespace btforge
