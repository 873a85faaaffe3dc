#include "host/spec/strategy_spec.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "host/spec/account_settings.h"
#include "host/spec/json_input.h"
#include "host/io/number_format.h"

namespace btforge {

namespace {

using spec_detail::JsonNode;

std::string join(const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items) {
        if (!text.empty()) text += ", ";
        text += item;
    }
    return text;
}

// As JSON writes the string, escapes included.
std::string in_quotes(std::string_view text) { return nlohmann::json(std::string(text)).dump(); }

double parse_bool_default(const JsonNode& node) {
    const auto& j = node.json();
    if (j.is_boolean()) return j.get<bool>() ? 1.0 : 0.0;
    if (j.is_number() && (j.get<double>() == 0.0 || j.get<double>() == 1.0)) return j.get<double>();
    node.fail("true, false, 0 or 1");
}

double parse_bound(const JsonNode& node, ParameterType type) {
    const double value = node.as_number();
    if (type == ParameterType::Int) {
        if (std::floor(value) != value) node.fail("an integer (the parameter is an int)");
        if (value < kMinIntParameter || value > kMaxIntParameter) node.fail("an integer within the int32 range");
    }
    return value;
}

ParameterType parse_type(const JsonNode& node) {
    const auto& j = node.json();
    if (j.is_string()) {
        const auto& text = j.get_ref<const std::string&>();
        if (text == "int") return ParameterType::Int;
        if (text == "double") return ParameterType::Double;
        if (text == "bool") return ParameterType::Bool;
    }
    node.fail("one of \"int\", \"double\", \"bool\"");
}

ParameterSpec parse_parameter(const JsonNode& node, const std::vector<ParameterSpec>& earlier) {
    node.expect_object("a parameter object");
    node.allow_only_keys({"name", "type", "default", "min", "max", "series", "description", "read_when"});
    ParameterSpec p;
    p.json_path = node.pointer();

    const JsonNode name = node.require("name");
    p.name = name.as_field_name();
    for (const auto& other : earlier)
        if (other.name == p.name)
            name.fail("a name no other parameter has", in_quotes(p.name) + ", already declared at " + other.json_path);

    p.type = parse_type(node.require("type"));
    p.series = node.require("series", "true when the parameter changes an indicator series").as_bool();
    if (auto description = node.find("description")) p.description = description->as_string();

    if (p.type == ParameterType::Bool) {
        for (const char* bound : {"min", "max"})
            if (auto given = node.find(bound))
                given->fail(std::string("no \"") + bound + "\" (a bool parameter is 0 or 1)");
        p.min = 0.0;
        p.max = 1.0;
        p.default_value = parse_bool_default(node.require("default"));
        return p;
    }

    const char* why = p.type == ParameterType::Int ? "required for int parameters" : "required for double parameters";
    const JsonNode default_node = node.require("default", why);
    const JsonNode min_node = node.require("min", why);
    const JsonNode max_node = node.require("max", why);
    p.min = parse_bound(min_node, p.type);
    p.max = parse_bound(max_node, p.type);
    p.default_value = parse_bound(default_node, p.type);
    if (p.max < p.min) max_node.fail("a number >= min (" + format_double(p.min) + ")");
    if (p.default_value < p.min || p.default_value > p.max)
        default_node.fail("a number within [min, max] = [" + format_double(p.min) + ", " + format_double(p.max) + "]");
    return p;
}

// Note [Parameters a mode reads]: the "read_when" of parameter `self`, read
// once every parameter is known (the controlling one may come later).
std::optional<ReadCondition> parse_read_when(const JsonNode& parameter, const std::vector<ParameterSpec>& params,
                                             std::size_t self) {
    const auto when = parameter.find("read_when");
    if (!when) return std::nullopt;
    when->expect_object("an object naming one parameter and the values where this one is read, e.g. {\"mode\": [0]}");
    if (when->json().size() != 1) when->fail("an object naming exactly one parameter and its values");
    const auto entry = when->json().begin();
    const std::string& name = entry.key();
    const JsonNode values(entry.value(), spec_detail::json_pointer_child(when->pointer(), name), when->origin());
    auto it = std::find_if(params.begin(), params.end(), [&](const ParameterSpec& p) { return p.name == name; });
    if (it == params.end()) values.fail("a parameter of the strategy", "unknown key " + in_quotes(name));
    const auto controller = static_cast<std::size_t>(it - params.begin());
    if (controller == self) values.fail("another parameter than " + in_quotes(name) + " itself");
    if (it->type == ParameterType::Double || it->series) {
        values.fail("an int or bool parameter with \"series\": false (a mode the reference tests)",
                    in_quotes(name) + ", declared at " + it->json_path);
    }
    if (it->max - it->min + 1 > kMaxControllingValues) {
        values.fail("a parameter of at most " + format_double(kMaxControllingValues) + " values",
                    in_quotes(name) + ", declared at " + it->json_path + " from " + format_double(it->min) + " to " +
                        format_double(it->max));
    }
    const std::size_t n = values.expect_array("an array of the values where " + in_quotes(params[self].name) + " is read");
    ReadCondition condition;
    condition.parameter = controller;
    condition.json_path = values.pointer();
    for (std::size_t i = 0; i < n; ++i) {
        const JsonNode element = values.element(i);
        const double v = element.json().is_boolean() ? (element.json().get<bool>() ? 1.0 : 0.0) : element.as_number();
        if (std::floor(v) != v || v < it->min || v > it->max) {
            element.fail("a value of " + in_quotes(name) + " (an integer from " + format_double(it->min) + " to " +
                         format_double(it->max) + ")");
        }
        if (std::find(condition.values.begin(), condition.values.end(), v) != condition.values.end())
            element.fail("a value not listed before");
        condition.values.push_back(v);
    }
    if (condition.values.empty()) values.fail("at least one value (a parameter never read belongs in no spec)");
    std::sort(condition.values.begin(), condition.values.end());
    if (it->max - it->min + 1 == static_cast<double>(condition.values.size()))
        values.fail("some of " + in_quotes(name) + "'s values left out (a claim of every value says nothing)");
    return condition;
}

// Note [Account settings]: the rules live with the settings.
AccountSpec parse_account(const JsonNode& node) {
    return apply_account_overrides(AccountSpec{}, spec_detail::parse_account_block(node));
}

// Note [Parameter domains]: an indicator argument is checked where the spec
// gives it, so a value outside its domain is named at its JSON path, not
// later by the indicator without a location.
IndicatorArg parse_argument(const JsonNode& node, const IndicatorSignature& sig, std::size_t arg_index,
                            const std::vector<ParameterSpec>& params, std::vector<bool>& used) {
    IndicatorArg arg;
    arg.name = sig.params[arg_index];
    const bool has_domain = arg_index < sig.param_domain.size();
    const std::string takes =
        has_domain ? sig.name + "'s " + arg.name + ": " + sig.param_domain[arg_index] : std::string();
    const auto within = [&](double v) {
        return !has_domain || (v >= sig.param_minimum[arg_index] && v <= sig.param_maximum[arg_index] &&
                               (!sig.integer_params[arg_index] || v == std::floor(v)));
    };
    const auto& j = node.json();
    if (j.is_number()) {
        arg.literal = j.get<double>();
        if (!within(arg.literal)) node.fail(takes, format_double(arg.literal));
        return arg;
    }
    if (!j.is_string()) node.fail("a number or the name of a series parameter");
    const auto& referenced = j.get_ref<const std::string&>();
    auto it = std::find_if(params.begin(), params.end(), [&](const ParameterSpec& p) { return p.name == referenced; });
    if (it == params.end()) node.fail("a number or the name of a series parameter", in_quotes(referenced) + ", which is no parameter");
    if (!it->series)
        node.fail("a parameter with \"series\": true (indicator arguments change series)",
                  in_quotes(referenced) + ", declared with \"series\": false at " + it->json_path);
    if (has_domain) {
        const bool integral = it->type != ParameterType::Double;
        if ((sig.integer_params[arg_index] && !integral) || !within(it->min) || !within(it->max)) {
            node.fail("a parameter whose values all lie in " + takes,
                      in_quotes(referenced) + ", declared at " + it->json_path + " as " +
                          (integral ? "an integer" : "a number") + " from " + format_double(it->min) + " to " +
                          format_double(it->max));
        }
    }
    const auto index = static_cast<std::size_t>(it - params.begin());
    used[index] = true;
    arg.parameter = index;
    return arg;
}

IndicatorUse parse_indicator(const JsonNode& node, const std::vector<IndicatorUse>& earlier,
                             std::span<const IndicatorSignature> catalog, const std::vector<ParameterSpec>& params,
                             std::vector<bool>& used) {
    node.expect_object("an indicator object");
    node.allow_only_keys({"id", "indicator", "output", "input", "params"});
    IndicatorUse use;
    use.json_path = node.pointer();

    const JsonNode id = node.require("id");
    use.id = id.as_field_name();
    for (const auto& other : earlier)
        if (other.id == use.id) id.fail("an id no other indicator has", in_quotes(use.id) + ", already used at " + other.json_path);

    const JsonNode kind = node.require("indicator");
    use.indicator = kind.as_string();
    auto sig = std::find_if(catalog.begin(), catalog.end(),
                            [&](const IndicatorSignature& s) { return s.name == use.indicator; });
    if (sig == catalog.end()) {
        std::vector<std::string> names;
        for (const auto& s : catalog) names.push_back(s.name);
        std::sort(names.begin(), names.end());
        kind.fail("one of the known indicators (" + join(names) + ")");
    }

    if (auto output = node.find("output")) {
        use.output = output->as_string();
        if (std::find(sig->outputs.begin(), sig->outputs.end(), use.output) == sig->outputs.end())
            output->fail("one of " + sig->name + "'s outputs (" + join(sig->outputs) + ")");
    } else if (!sig->outputs.empty()) {
        use.output = sig->outputs.front();
    }

    if (!sig->input_columns.empty()) use.input = sig->inputs.front();
    if (auto input = node.find("input")) {
        if (sig->input_columns.empty()) {
            input->fail("no \"input\": " + sig->name + " reads " + join(sig->inputs) +
                        (sig->cross_symbol ? " of every symbol" : "") +
                        ", and only an indicator of one input column can read another");
        }
        use.input = input->as_string();
        if (std::find(sig->input_columns.begin(), sig->input_columns.end(), use.input) == sig->input_columns.end())
            input->fail("one of the price columns " + sig->name + " can read (" + join(sig->input_columns) + ")");
    }

    const std::string takes = sig->name + " takes " + (sig->params.empty() ? "no parameters" : join(sig->params));
    const JsonNode args = node.require("params", takes);
    args.expect_object("an object giving " + sig->name + "'s parameters (" + join(sig->params) + ")");
    for (const auto& [key, value] : args.json().items()) {
        if (std::find(sig->params.begin(), sig->params.end(), key) == sig->params.end())
            JsonNode(value, spec_detail::json_pointer_child(args.pointer(), key), args.origin())
                .fail("one of " + sig->name + "'s parameters (" + join(sig->params) + ")", "unknown key " + in_quotes(key));
    }
    for (std::size_t a = 0; a < sig->params.size(); ++a)
        use.args.push_back(parse_argument(args.require(sig->params[a], takes), *sig, a, params, used));
    return use;
}

}  // namespace

std::string_view to_string(ParameterType type) {
    switch (type) {
        case ParameterType::Int: return "int";
        case ParameterType::Double: return "double";
        case ParameterType::Bool: return "bool";
    }
    return "?";
}

std::optional<std::size_t> StrategySpec::parameter_index(std::string_view parameter_name) const {
    for (std::size_t i = 0; i < parameters.size(); ++i)
        if (parameters[i].name == parameter_name) return i;
    return std::nullopt;
}

std::optional<std::size_t> StrategySpec::indicator_index(std::string_view indicator_id) const {
    for (std::size_t i = 0; i < indicators.size(); ++i)
        if (indicators[i].id == indicator_id) return i;
    return std::nullopt;
}

StrategySpec parse_strategy_spec(std::string_view json_text, std::string origin,
                                 std::span<const IndicatorSignature> catalog) {
    const nlohmann::json document = spec_detail::parse_json_document(json_text, origin);
    const JsonNode root(document, "", origin);
    root.expect_object("a strategy spec object");
    root.allow_only_keys({"strategy", "description", "account", "parameters", "indicators"});

    StrategySpec spec;
    spec.name = root.require("strategy").as_identifier();
    if (auto description = root.find("description")) spec.description = description->as_string();
    if (auto account = root.find("account")) spec.account = parse_account(*account);

    const JsonNode params = root.require("parameters");
    const std::size_t n_params = params.expect_array("an array of parameter objects");
    for (std::size_t i = 0; i < n_params; ++i) spec.parameters.push_back(parse_parameter(params.element(i), spec.parameters));
    for (std::size_t i = 0; i < n_params; ++i)
        spec.parameters[i].read_when = parse_read_when(params.element(i), spec.parameters, i);
    for (const ParameterSpec& p : spec.parameters) {
        if (!p.read_when) continue;
        const ParameterSpec& controller = spec.parameters[p.read_when->parameter];
        if (controller.read_when) {
            throw SpecError(origin, p.read_when->json_path,
                            "expected a controlling parameter without a claim of its own, got " + in_quotes(controller.name) +
                                ", which has one at " + controller.read_when->json_path);
        }
    }

    std::vector<bool> used(spec.parameters.size(), false);
    if (auto indicators = root.find("indicators")) {
        const std::size_t n = indicators->expect_array("an array of indicator objects");
        for (std::size_t i = 0; i < n; ++i)
            spec.indicators.push_back(parse_indicator(indicators->element(i), spec.indicators, catalog, spec.parameters, used));
    }

    // A series parameter that no indicator reads would still split the
    // combination space into series blocks (see Note [Mixed radix digit
    // order]) for nothing; most likely it was meant to be "series": false.
    for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
        const auto& p = spec.parameters[i];
        if (p.series && !used[i])
            throw SpecError(origin, p.json_path + "/series",
                            "expected \"series\": false for a parameter no indicator uses, got true (no indicator uses " +
                                in_quotes(p.name) + ")");
    }

    spec.origin = std::move(origin);
    return spec;
}

}  // namespace btforge
