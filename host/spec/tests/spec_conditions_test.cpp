// Note [Parameters a mode reads] and Note [Conditional axes]: "when": "spec"
// takes a grid axis's condition from the spec's read_when claim, and every
// condition is proven by a claim or said to be the user's choice.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/spec/combination_space.h"
#include "host/spec/grid.h"
#include "host/spec/spec_error.h"
#include "host/spec/tests/spec_fixtures.h"

namespace btforge {
namespace {

using nlohmann::json;

// The fixture spec (mode takes 0, 1, 2) with ema_fast read only in mode 0
// and bb_k only in modes 1 and 2.
StrategySpec claiming_spec() {
    json spec = json::parse(test::kSpecJson);
    for (auto& p : spec["parameters"]) {
        if (p["name"] == "ema_fast") p["read_when"] = {{"mode", {0}}};
        if (p["name"] == "bb_k") p["read_when"] = {{"mode", {2, 1}}};
    }
    return parse_strategy_spec(spec.dump(), "spec.json", test::catalog());
}

Grid grid_of(const StrategySpec& spec, const json& parameters) {
    return parse_grid(json{{"strategy", "default"}, {"parameters", parameters}}.dump(), "grid.json", spec);
}

const AxisCondition& condition(const Grid& grid, const StrategySpec& spec, const char* name) {
    const GridAxis& axis = grid.axes.at(*spec.parameter_index(name));
    REQUIRE(axis.when.has_value());
    return *axis.when;
}

TEST_CASE("the spec's claim is parsed, its values sorted") {
    const StrategySpec spec = claiming_spec();
    const ParameterSpec& bb_k = spec.parameters[*spec.parameter_index("bb_k")];
    REQUIRE(bb_k.read_when.has_value());
    CHECK(bb_k.read_when->parameter == *spec.parameter_index("mode"));
    CHECK(bb_k.read_when->values == std::vector<double>{1, 2});
    CHECK(bb_k.read_when->json_path == "/parameters/5/read_when/mode");
    CHECK_FALSE(spec.parameters[*spec.parameter_index("sl_atr")].read_when.has_value());
}

TEST_CASE("\"when\": \"spec\" keeps the claim's values that the controlling axis has") {
    const StrategySpec spec = claiming_spec();
    struct Case {
        std::vector<int> modes;
        std::vector<double> ema_fast_when;
        std::vector<double> bb_k_when;
        std::uint64_t combinations;  // ema_fast 3 values, bb_k 2
    };
    const std::vector<Case> cases = {
        {{0, 1, 2}, {0}, {1, 2}, 3 + 2 + 2},
        {{2, 0}, {0}, {2}, 3 + 2},
        {{1}, {}, {1}, 2},  // ema_fast is read nowhere here: its first value throughout
        {{0}, {0}, {}, 3},
    };
    for (const Case& c : cases) {
        CAPTURE(c.modes.size());
        const Grid grid = grid_of(spec, {{"ema_fast", {{"values", {8, 12, 20}}, {"when", "spec"}}},
                                         {"bb_k", {{"values", {2.0, 2.5}}, {"when", "spec"}}},
                                         {"mode", {{"values", c.modes}}}});
        const AxisCondition& fast = condition(grid, spec, "ema_fast");
        CHECK(fast.values == c.ema_fast_when);
        CHECK(fast.from_spec);
        CHECK(fast.proven);
        CHECK(fast.json_path == "/parameters/ema_fast/when");
        CHECK(condition(grid, spec, "bb_k").values == c.bb_k_when);
        CHECK(conditional_space_size(grid) == c.combinations);
    }
}

TEST_CASE("a condition the user writes is proven only when it keeps every value where the spec says the axis is read") {
    const StrategySpec spec = claiming_spec();
    struct Case {
        const char* axis;
        json when;
        std::vector<int> modes;
        bool proven;
    };
    const std::vector<Case> cases = {
        {"ema_fast", {{"mode", {0}}}, {0, 1, 2}, true},
        {"ema_fast", {{"mode", {0, 1}}}, {0, 1, 2}, true},  // runs more than it must, leaves out only repeats
        {"ema_fast", {{"mode", {1}}}, {0, 1, 2}, false},    // leaves out mode 0, where it is read
        {"bb_k", {{"mode", {1}}}, {0, 1, 2}, false},        // leaves out mode 2, where it is read
        {"bb_k", {{"mode", {1}}}, {0, 1}, true},            // mode 2 is not on this grid
        {"sl_atr", {{"mode", {0}}}, {0, 1, 2}, false},      // no claim
        {"ema_fast", {{"allow_short", {true}}}, {0, 1, 2}, false},  // the claim is about another parameter
    };
    for (const Case& c : cases) {
        CAPTURE(c.axis);
        CAPTURE(c.when.dump());
        const std::string name = c.axis;
        const std::vector<double> values =
            name == "ema_fast" ? std::vector<double>{8, 20} : std::vector<double>{1, 2};
        json parameters = {{c.axis, {{"values", values}, {"when", c.when}}},
                           {"mode", {{"values", c.modes}}},
                           {"allow_short", {{"values", {true, false}}}}};
        const Grid grid = grid_of(spec, parameters);
        CHECK(condition(grid, spec, c.axis).proven == c.proven);
        CHECK_FALSE(condition(grid, spec, c.axis).from_spec);
    }
}

TEST_CASE("--param NAME=... when spec is the grid file's \"when\": \"spec\"") {
    const StrategySpec spec = claiming_spec();
    const std::vector<std::string> options = {"ema_fast=8,12 when spec", "mode=0,2", "bb_k=2.5 when spec"};
    const Grid by_option = grid_from_param_options(spec, options);
    const Grid by_file = grid_of(spec, {{"ema_fast", {{"values", {8, 12}}, {"when", "spec"}}},
                                        {"mode", {{"values", {0, 2}}}},
                                        {"bb_k", {{"values", {2.5}}, {"when", "spec"}}}});
    for (const char* name : {"ema_fast", "bb_k"}) {
        CAPTURE(name);
        CHECK(condition(by_option, spec, name).values == condition(by_file, spec, name).values);
        CHECK(condition(by_option, spec, name).from_spec);
    }
    CHECK(condition(by_option, spec, "bb_k").values == std::vector<double>{2});
}

TEST_CASE("\"when\": \"spec\" on a parameter without a claim is refused by name") {
    const StrategySpec spec = claiming_spec();
    CHECK_THROWS_WITH_AS(grid_of(spec, {{"sl_atr", {{"values", {1.0, 2.0}}, {"when", "spec"}}}}),
                         doctest::Contains("grid.json: /parameters/sl_atr/when: expected a parameter the spec claims is "
                                           "read only for some values of another (\"read_when\" in spec.json), got "
                                           "\"spec\" for sl_atr, which has no such claim"),
                         SpecError);
    CHECK_THROWS_WITH_AS(grid_of(spec, {{"ema_fast", {{"values", {8}}, {"when", "always"}}}}),
                         doctest::Contains("/parameters/ema_fast/when: expected an object naming one parameter and its "
                                           "values, e.g. {\"mode\": [0]}, or \"spec\""),
                         SpecError);
    // A controlling axis with a condition of its own is refused as for any condition.
    CHECK_THROWS_WITH_AS(grid_of(spec, {{"ema_fast", {{"values", {8, 12}}, {"when", "spec"}}},
                                        {"mode", {{"values", {0, 1}}, {"when", {{"allow_short", {true}}}}}}}),
                         doctest::Contains("expected a parameter without a condition of its own, got mode"), SpecError);
}

TEST_CASE("the run header says which conditions are proven") {
    const StrategySpec spec = claiming_spec();
    CHECK(describe_conditions(default_grid(spec), spec).empty());
    const Grid grid = grid_of(spec, {{"ema_fast", {{"values", {8, 12}}, {"when", "spec"}}},
                                     {"bb_k", {{"values", {2.0, 2.5}}, {"when", "spec"}}},
                                     {"sl_atr", {{"values", {1.0, 2.0}}, {"when", {{"mode", {0}}}}}},
                                     {"mode", {{"values", {0, 1}}}}});
    CHECK(describe_conditions(grid, spec) ==
          "ema_fast when mode=0, bb_k when mode=1 (proven by the spec's read_when, checked against the reference: the "
          "combinations left out repeat ones that run); sl_atr when mode=0 (not proven by the spec: the combinations "
          "left out may give other results)");
    const Grid nowhere = grid_of(spec, {{"ema_fast", {{"values", {8, 12}}, {"when", "spec"}}}, {"mode", 1}});
    CHECK(describe_conditions(nowhere, spec) ==
          "ema_fast when mode=(no value of this grid) (proven by the spec's read_when, checked against the reference: "
          "the combinations left out repeat ones that run)");
}

}  // namespace
}  // namespace btforge
