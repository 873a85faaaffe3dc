#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/spec/grid.h"
#include "host/spec/spec_error.h"
#include "host/spec/tests/spec_fixtures.h"

namespace btforge {
namespace {

using nlohmann::json;

std::vector<double> axis(const Grid& grid, const StrategySpec& spec, const char* name) {
    return grid.axes.at(*spec.parameter_index(name)).values;
}

// The grid that a file listing `parameter: axis` alone gives.
Grid from_file(const StrategySpec& spec, const char* parameter, const json& axis_json) {
    const json document = {{"strategy", "default"}, {"parameters", {{parameter, axis_json}}}};
    return parse_grid(document.dump(), "grid.json", spec);
}

TEST_CASE("each --param form gives the values of the grid file's equivalent axis") {
    const StrategySpec spec = test::default_spec();
    struct Case {
        const char* option;
        const char* parameter;
        json file_axis;
    };
    const std::vector<Case> cases = {
        {"ema_fast=12", "ema_fast", 12},
        {"ema_fast=5:30:5", "ema_fast", {{"range", {{"start", 5}, {"stop", 30}, {"step", 5}}}}},
        {"ema_fast=20,8,12", "ema_fast", {{"values", {20, 8, 12}}}},
        {"ema_fast=log:2:400:9", "ema_fast", {{"log_range", {{"start", 2}, {"stop", 400}, {"num", 9}}}}},
        {"sl_atr=1.5,2,3", "sl_atr", {{"values", {1.5, 2, 3}}}},
        {"sl_atr=0.1:0.3:0.1", "sl_atr", {{"range", {{"start", 0.1}, {"stop", 0.3}, {"step", 0.1}}}}},
        {"sl_atr=log:0.5:4:4", "sl_atr", {{"log_range", {{"start", 0.5}, {"stop", 4}, {"num", 4}}}}},
        {"sl_atr = 1e-1 : 2.5e0 : 0.6", "sl_atr", {{"range", {{"start", 0.1}, {"stop", 2.5}, {"step", 0.6}}}}},
        {"bb_k=2.25", "bb_k", 2.25},
        {"allow_short=false", "allow_short", false},
        {"allow_short=true,false", "allow_short", {{"values", {true, false}}}},
        {"allow_short=0,1", "allow_short", {{"values", {0, 1}}}},
    };
    for (const Case& c : cases) {
        CAPTURE(c.option);
        const std::vector<std::string> options = {c.option};
        const Grid by_option = grid_from_param_options(spec, options);
        const Grid by_file = from_file(spec, c.parameter, c.file_axis);
        for (std::size_t i = 0; i < spec.parameters.size(); ++i) CHECK(by_option.axes[i].values == by_file.axes[i].values);
        CHECK(axis(by_option, spec, c.parameter).size() >= 1);
    }
}

TEST_CASE("--param ... when OTHER=V,W gives the grid file's \"when\" (Note [Conditional axes])") {
    const StrategySpec spec = test::default_spec();
    const std::vector<std::string> options = {"ema_fast=8,12 when mode=0,2", "mode=0:2:1", "bb_k=1.5 when mode=1"};
    const Grid grid = grid_from_param_options(spec, options);
    const json file = {{"strategy", "default"},
                       {"parameters",
                        {{"ema_fast", {{"values", {8, 12}}, {"when", {{"mode", {0, 2}}}}}},
                         {"mode", {{"range", {{"start", 0}, {"stop", 2}, {"step", 1}}}}},
                         {"bb_k", {{"values", {1.5}}, {"when", {{"mode", 1}}}}}}}};
    const Grid by_file = parse_grid(file.dump(), "grid.json", spec);
    for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
        CAPTURE(spec.parameters[i].name);
        CHECK(grid.axes[i].values == by_file.axes[i].values);
        REQUIRE(grid.axes[i].when.has_value() == by_file.axes[i].when.has_value());
        if (!grid.axes[i].when) continue;
        CHECK(grid.axes[i].when->parameter == by_file.axes[i].when->parameter);
        CHECK(grid.axes[i].when->values == by_file.axes[i].when->values);
        CHECK(grid.axes[i].when->origin == "--param " + options[i == 0 ? 0 : 2]);
    }
    // An option replaces the file's axis with its condition, or none.
    const Grid replaced = parse_grid(file.dump(), "grid.json", spec, std::vector<std::string>{"ema_fast=8,12,20"});
    CHECK_FALSE(replaced.axes[*spec.parameter_index("ema_fast")].when.has_value());
    CHECK(replaced.axes[*spec.parameter_index("bb_k")].when.has_value());
    // A condition on the values an option leaves out of the controlling axis.
    CHECK_THROWS_WITH_AS(parse_grid(file.dump(), "grid.json", spec, std::vector<std::string>{"mode=0,2"}),
                         doctest::Contains("grid.json: /parameters/bb_k/when/mode: expected values of the grid's axis "
                                           "of mode (0, 2), got 1: the condition would never hold there"),
                         SpecError);
}

TEST_CASE("--param replaces the axis of the grid file and keeps the others") {
    const StrategySpec spec = test::default_spec();
    const std::string file = R"({"strategy": "default", "parameters": {"ema_fast": {"values": [8, 12]}, "mode": 1},
                                 "random": {"count": 3, "seed": 9}})";
    const std::vector<std::string> options = {"ema_fast=5:15:5", "sl_atr=1,2"};
    const Grid grid = parse_grid(file, "grid.json", spec, options);
    CHECK(axis(grid, spec, "ema_fast") == std::vector<double>{5, 10, 15});
    CHECK(axis(grid, spec, "sl_atr") == std::vector<double>{1, 2});
    CHECK(axis(grid, spec, "mode") == std::vector<double>{1});
    CHECK(axis(grid, spec, "ema_slow") == std::vector<double>{50});
    CHECK(grid.origin == "grid.json with --param ema_fast=5:15:5 --param sl_atr=1,2");
    REQUIRE(grid.random.has_value());
    CHECK(grid.random->count == 3);
    // Without a file: the defaults and the options' axes.
    const Grid alone = grid_from_param_options(spec, options);
    CHECK(axis(alone, spec, "mode") == std::vector<double>{0});
    CHECK(alone.origin == "--param ema_fast=5:15:5 --param sl_atr=1,2");
}

TEST_CASE("the random block is checked against the space that the --param options leave") {
    const StrategySpec spec = test::default_spec();
    const std::string file = R"({"strategy": "default", "parameters": {"ema_fast": {"values": [8, 12, 20, 30]}},
                                 "random": {"count": 3, "seed": 9}})";
    const std::vector<std::string> options = {"ema_fast=8,12"};
    try {
        parse_grid(file, "grid.json", spec, options);
        FAIL("accepted");
    } catch (const SpecError& e) {
        CHECK(e.origin() == "grid.json");
        CHECK(e.json_pointer() == "/random/count");
        CHECK(e.message() == "expected at most 2 (the size of the grid's combination space), got 3");
    }
}

TEST_CASE("a --param value that breaks a grid rule gets the grid's error, at the option") {
    const StrategySpec spec = test::default_spec();
    struct Case {
        const char* option;
        const char* pointer;
        const char* message;
    };
    const std::vector<Case> cases = {
        {"ema_fast=5:30:0", "/range/step", "expected a positive number, got 0"},
        {"ema_fast=30:5:5", "/range/stop", "expected a number >= start (30), got 5"},
        {"ema_fast=5:30:2.5", "/range/step", "expected an integer (ema_fast is an int), got 2.5"},
        {"ema_fast=1.5", "", "expected an integer (ema_fast is an int), got 1.5"},
        {"ema_fast=500", "", "expected a value within [2, 400] (the bounds of ema_fast), got 500"},
        {"ema_fast=8,9,8", "/values/2", "expected a value not listed before, got 8 again (already at /values/0)"},
        {"ema_fast=true", "", "expected an integer (ema_fast is an int), got true"},
        {"sl_atr=log:4:1:3", "/log_range/stop", "expected a number > start (4), got 1"},
        {"sl_atr=log:1:4:1", "/log_range/num", "expected an integer >= 2, got 1"},
        {"sl_atr=log:1:4:2.5", "/log_range/num", "expected an integer >= 2, got 2.5"},
        {"allow_short=2", "", "expected true, false, 0 or 1 (allow_short is a bool), got 2"},
        {"allow_short=0:1:1", "/range", "expected \"values\" or a single value (allow_short is a bool), got \"range\""},
        {"allow_short=true,1", "/values/1", "expected a value not listed before, got 1 again (already at /values/0)"},
        {"ema_fsat=5", "", "expected a parameter of strategy default (ema_fast, sl_atr, ema_slow, mode, bb_period, "
                           "bb_k, allow_short), got \"ema_fsat\""},
    };
    for (const Case& c : cases) {
        CAPTURE(c.option);
        const std::vector<std::string> options = {c.option};
        try {
            grid_from_param_options(spec, options);
            FAIL("accepted");
        } catch (const SpecError& e) {
            CHECK(e.origin() == std::string("--param ") + c.option);
            CHECK(e.json_pointer() == c.pointer);
            CHECK(e.message() == c.message);
        }
    }
}

TEST_CASE("a parameter is given by one --param only") {
    const StrategySpec spec = test::default_spec();
    const std::vector<std::string> options = {"ema_fast=5", "sl_atr=2", "ema_fast=6"};
    try {
        grid_from_param_options(spec, options);
        FAIL("accepted");
    } catch (const SpecError& e) {
        CHECK(std::string(e.what()) == "--param ema_fast=6: expected one --param per parameter, got ema_fast again");
    }
}

TEST_CASE("--param text that forms no grid value is a syntax error naming the option") {
    const StrategySpec spec = test::default_spec();
    struct Case {
        const char* option;
        const char* message;
    };
    const std::vector<Case> cases = {
        {"ema_fast", "--param ema_fast: expected NAME=V, NAME=A,B,C, NAME=START:STOP:STEP or NAME=log:START:STOP:NUM"},
        {"ema_fast=", "--param ema_fast=: expected NAME=V, NAME=A,B,C"},
        {"=5", "--param =5: expected NAME=V, NAME=A,B,C"},
        {"ema_fast=5:30", "--param ema_fast=5:30: expected START:STOP:STEP, got \"5:30\""},
        {"ema_fast=5:30:5:1", "--param ema_fast=5:30:5:1: expected START:STOP:STEP, got \"5:30:5:1\""},
        {"ema_fast=5::5", "--param ema_fast=5::5: expected START:STOP:STEP, got \"5::5\""},
        {"ema_fast=5:x:5", "--param ema_fast=5:x:5: expected a number, true or false, got \"x\""},
        {"ema_fast=1,,2", "--param ema_fast=1,,2: expected values A,B,C, got \"1,,2\""},
        {"ema_fast=1,2,", "--param ema_fast=1,2,: expected values A,B,C, got \"1,2,\""},
        {"ema_fast=ten", "--param ema_fast=ten: expected a number, true or false, got \"ten\""},
        {"sl_atr=nan", "--param sl_atr=nan: expected a number, true or false, got \"nan\""},
        {"sl_atr=1e999", "--param sl_atr=1e999: expected a number, true or false, got \"1e999\""},
        {"sl_atr=log:1:4", "--param sl_atr=log:1:4: expected log:START:STOP:NUM, got \"log:1:4\""},
        {"ema_fast=1,2:3", "--param ema_fast=1,2:3: expected a number, true or false, got \"1,2\""},
        {"ema_fast=8,12 when mode", "--param ema_fast=8,12 when mode: expected NAME=VALUES when OTHER=V, OTHER=V,W,... or spec"},
        {"ema_fast=8,12 when =0", "--param ema_fast=8,12 when =0: expected NAME=VALUES when OTHER=V, OTHER=V,W,... or spec"},
        {"ema_fast=8,12 when mode=0:2:1", "--param ema_fast=8,12 when mode=0:2:1: expected the condition's values"},
        {"ema_fast=8,12 when mode=x", "--param ema_fast=8,12 when mode=x: expected a number, true or false"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.option);
        const std::vector<std::string> options = {c.option};
        try {
            grid_from_param_options(spec, options);
            FAIL("accepted");
        } catch (const ParamOptionSyntaxError& e) {
            CHECK_MESSAGE(std::string(e.what()).rfind(c.message, 0) == 0, e.what());
        }
    }
}

}  // namespace
}  // namespace btforge
