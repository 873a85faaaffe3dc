#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/spec/grid.h"
#include "host/spec/spec_error.h"
#include "host/spec/tests/spec_fixtures.h"

namespace btforge {
namespace {

using nlohmann::json;

const char* const kGridJson = R"({
  "strategy": "default",
  "parameters": {
    "ema_fast": {"values": [8, 12, 20]},
    "ema_slow": {"range": {"start": 30, "stop": 90, "step": 20}},
    "sl_atr":   {"log_range": {"start": 1.0, "stop": 4.0, "num": 4}},
    "mode": 1,
    "allow_short": true
  }
})";

struct MalformedGrid {
    const char* name;
    std::function<void(json&)> mutate;
    const char* pointer;
    const char* message;
};

std::vector<double> axis(const Grid& grid, const StrategySpec& spec, const char* name) {
    return grid.axes.at(*spec.parameter_index(name)).values;
}

TEST_CASE("a valid grid parses into per-parameter value lists") {
    const StrategySpec spec = test::default_spec();
    const Grid grid = parse_grid(kGridJson, "grid.json", spec);
    CHECK(grid.strategy == "default");
    CHECK(grid.origin == "grid.json");
    CHECK_FALSE(grid.random.has_value());
    REQUIRE(grid.axes.size() == spec.parameters.size());
    for (std::size_t i = 0; i < grid.axes.size(); ++i) CHECK(grid.axes[i].parameter == i);

    CHECK(axis(grid, spec, "ema_fast") == std::vector<double>{8, 12, 20});
    CHECK(grid.axes[0].json_path == "/parameters/ema_fast");
    CHECK(axis(grid, spec, "ema_slow") == std::vector<double>{30, 50, 70, 90});
    const auto sl = axis(grid, spec, "sl_atr");
    REQUIRE(sl.size() == 4);
    CHECK(sl[0] == 1.0);
    CHECK(sl[1] == doctest::Approx(std::pow(4.0, 1.0 / 3.0)));
    CHECK(sl[2] == doctest::Approx(std::pow(4.0, 2.0 / 3.0)));
    CHECK(sl[3] == 4.0);
    CHECK(axis(grid, spec, "mode") == std::vector<double>{1});
    CHECK(axis(grid, spec, "allow_short") == std::vector<double>{1});
    // Unlisted parameters keep their default.
    CHECK(axis(grid, spec, "bb_period") == std::vector<double>{20});
    CHECK(axis(grid, spec, "bb_k") == std::vector<double>{2.0});
    CHECK(grid.axes[*spec.parameter_index("bb_k")].json_path.empty());
}

TEST_CASE("ranges are computed as start + i*step with an inclusive stop") {
    const StrategySpec spec = test::default_spec();
    auto values_of = [&](const char* axis_json) {
        const std::string text = std::string(R"({"strategy": "default", "parameters": {"bb_k": )") + axis_json + "}}";
        return parse_grid(text, "grid.json", spec).axes[5].values;
    };
    SUBCASE("a stop that the quotient misses by rounding is still included, and exactly") {
        // (2.3 - 2.1) / 0.1 = 1.9999999999999973 and 2.1 + 2 * 0.1 = 2.3000000000000003.
        const auto v = values_of(R"({"range": {"start": 2.1, "stop": 2.3, "step": 0.1}})");
        REQUIRE(v.size() == 3);
        CHECK(v[0] == 2.1);
        CHECK(v[1] == 2.1 + 1.0 * 0.1);
        CHECK(v[2] == 2.3);
    }
    SUBCASE("a stop off the step is not reached") {
        CHECK(values_of(R"({"range": {"start": 1, "stop": 2.05, "step": 0.5}})") == std::vector<double>{1, 1.5, 2});
    }
    SUBCASE("start == stop gives one value") {
        CHECK(values_of(R"({"range": {"start": 1.5, "stop": 1.5, "step": 0.25}})") == std::vector<double>{1.5});
    }
    SUBCASE("no accumulated error over a long range") {
        const auto v = values_of(R"({"range": {"start": 0.5, "stop": 5, "step": 0.001}})");
        REQUIRE(v.size() == 4501);
        for (std::size_t i = 0; i + 1 < v.size(); ++i) CHECK(v[i] == 0.5 + static_cast<double>(i) * 0.001);
        CHECK(v.back() == 5.0);
    }
    SUBCASE("the stop may lie beyond max as long as the values do not") {
        CHECK(values_of(R"({"range": {"start": 4, "stop": 5.5, "step": 1}})") == std::vector<double>{4, 5});
    }
}

TEST_CASE("log ranges of int parameters are rounded and deduplicated") {
    const StrategySpec spec = test::default_spec();
    const Grid grid = parse_grid(R"({"strategy": "default", "parameters": {
        "ema_fast": {"log_range": {"start": 2, "stop": 10, "num": 8}},
        "allow_short": {"values": [false, 1]}}})",
                                 "grid.json", spec);
    // 2 * 5^(i/7): 2, 2.52, 3.17, 4.0, 5.03, 6.33, 7.97, 10
    CHECK(grid.axes[0].values == std::vector<double>{2, 3, 4, 5, 6, 8, 10});
    CHECK(grid.axes[6].values == std::vector<double>{0, 1});
}

TEST_CASE("the random block is parsed") {
    const StrategySpec spec = test::default_spec();
    json document = json::parse(kGridJson);
    document["random"] = {{"count", 10}, {"seed", 18446744073709551615ULL}};
    const Grid grid = parse_grid(document.dump(), "grid.json", spec);
    REQUIRE(grid.random.has_value());
    CHECK(grid.random->count == 10);
    CHECK(grid.random->seed == 18446744073709551615ULL);

    document["random"] = {{"count", 48}, {"seed", 0}};  // exactly the whole space
    CHECK(parse_grid(document.dump(), "grid.json", spec).random->count == 48);
}

TEST_CASE("the default grid is the single default combination") {
    const StrategySpec spec = test::default_spec();
    const Grid grid = default_grid(spec);
    REQUIRE(grid.axes.size() == spec.parameters.size());
    for (std::size_t i = 0; i < spec.parameters.size(); ++i)
        CHECK(grid.axes[i].values == std::vector<double>{spec.parameters[i].default_value});
    CHECK(parse_grid(R"({"strategy": "default"})", "g", spec).axes[0].values == grid.axes[0].values);
}

TEST_CASE("malformed grids are rejected with their own message and JSON pointer") {
    const StrategySpec spec = test::default_spec();
    const std::vector<MalformedGrid> cases = {
        {"root not an object", [](json& j) { j = 3; }, "", "expected a grid object, got 3"},
        {"strategy missing", [](json& j) { j.erase("strategy"); }, "", "expected key \"strategy\""},
        {"strategy mismatch", [](json& j) { j["strategy"] = "other"; }, "/strategy",
         "expected \"default\" (the strategy of spec.json), got \"other\""},
        {"unknown top-level key", [](json& j) { j["params"] = json::object(); }, "/params",
         "expected one of the keys strategy, parameters, random, account, got unknown key \"params\""},
        {"parameters not an object", [](json& j) { j["parameters"] = json::array(); }, "/parameters",
         "expected an object mapping parameter names to values"},
        {"unknown parameter", [](json& j) { j["parameters"]["ema_fsat"] = 3; }, "/parameters/ema_fsat",
         "expected a parameter of strategy default (ema_fast, sl_atr, ema_slow, mode, bb_period, bb_k, allow_short), got "
         "unknown key \"ema_fsat\""},
        {"axis of the wrong kind", [](json& j) { j["parameters"]["ema_fast"] = "8"; }, "/parameters/ema_fast",
         "expected a number, a bool, or an object with one of the keys values, range, log_range, got \"8\""},
        {"axis with two kinds", [](json& j) { j["parameters"]["ema_fast"]["range"] = {{"start", 1}, {"stop", 2}, {"step", 1}}; },
         "/parameters/ema_fast", "expected an object with exactly one of the keys values, range, log_range"},
        {"axis with an unknown kind", [](json& j) { j["parameters"]["ema_fast"] = {{"vals", {1}}}; }, "/parameters/ema_fast/vals",
         "got unknown key \"vals\""},
        {"fixed value out of bounds", [](json& j) { j["parameters"]["mode"] = 3; }, "/parameters/mode",
         "expected a value within [0, 2] (the bounds of mode), got 3"},
        {"fixed int not integral", [](json& j) { j["parameters"]["mode"] = 1.5; }, "/parameters/mode",
         "expected an integer (mode is an int), got 1.5"},
        {"bool given 2", [](json& j) { j["parameters"]["allow_short"] = 2; }, "/parameters/allow_short",
         "expected true, false, 0 or 1 (allow_short is a bool), got 2"},
        {"double given a bool", [](json& j) { j["parameters"]["bb_k"] = true; }, "/parameters/bb_k",
         "expected a number (bb_k is a double), got true"},
        {"values empty", [](json& j) { j["parameters"]["ema_fast"]["values"] = json::array(); }, "/parameters/ema_fast/values",
         "expected a non-empty array of values, got an empty array"},
        // Note [Conditional axes]
        {"condition on an unknown parameter", [](json& j) { j["parameters"]["ema_fast"]["when"] = {{"mood", {0}}}; },
         "/parameters/ema_fast/when/mood", "expected a parameter of strategy default, got unknown key \"mood\""},
        {"condition on itself", [](json& j) { j["parameters"]["ema_fast"]["when"] = {{"ema_fast", {8}}}; },
         "/parameters/ema_fast/when/ema_fast", "expected another parameter than the axis's own"},
        {"condition of two parameters",
         [](json& j) { j["parameters"]["ema_fast"]["when"] = {{"mode", {0}}, {"bb_k", {1}}}; },
         "/parameters/ema_fast/when", "expected an object naming exactly one parameter and its values"},
        {"condition not an object", [](json& j) { j["parameters"]["ema_fast"]["when"] = "mode=0"; },
         "/parameters/ema_fast/when", "expected an object naming one parameter and its values"},
        {"condition value out of bounds", [](json& j) { j["parameters"]["ema_fast"]["when"] = {{"mode", {3}}}; },
         "/parameters/ema_fast/when/mode/0", "expected a value within [0, 2] (the bounds of mode), got 3"},
        {"condition value not on the axis", [](json& j) { j["parameters"]["ema_fast"]["when"] = {{"mode", {2}}}; },
         "/parameters/ema_fast/when/mode",
         "expected values of the grid's axis of mode (1), got 2: the condition would never hold there"},
        {"condition on a conditional axis",
         [](json& j) {
             j["parameters"]["ema_fast"]["when"] = {{"mode", {0}}};
             j["parameters"]["mode"] = {{"values", {0, 1}}, {"when", {{"allow_short", {true}}}}};
         },
         "/parameters/ema_fast/when/mode",
         "expected a parameter without a condition of its own, got mode, whose axis has one"},
        {"condition without an axis", [](json& j) { j["parameters"]["ema_fast"] = {{"when", {{"mode", {0}}}}}; },
         "/parameters/ema_fast", "expected an object with exactly one of the keys values, range, log_range (and maybe when)"},
        {"values not an array", [](json& j) { j["parameters"]["ema_fast"]["values"] = 8; }, "/parameters/ema_fast/values",
         "expected a non-empty array of values, got 8"},
        {"value out of bounds", [](json& j) { j["parameters"]["ema_fast"]["values"] = {8, 500}; }, "/parameters/ema_fast/values/1",
         "expected a value within [2, 400] (the bounds of ema_fast), got 500"},
        {"value not integral", [](json& j) { j["parameters"]["ema_fast"]["values"] = {8.5}; }, "/parameters/ema_fast/values/0",
         "expected an integer (ema_fast is an int), got 8.5"},
        {"duplicate value", [](json& j) { j["parameters"]["ema_fast"]["values"] = {8, 9, 8.0}; }, "/parameters/ema_fast/values/2",
         "expected a value not listed before, got 8 again (already at /parameters/ema_fast/values/0)"},
        {"duplicate bool value", [](json& j) { j["parameters"]["allow_short"] = {{"values", {true, 1}}}; },
         "/parameters/allow_short/values/1", "got 1 again"},
        {"range step zero", [](json& j) { j["parameters"]["ema_slow"]["range"]["step"] = 0; }, "/parameters/ema_slow/range/step",
         "expected a positive number, got 0"},
        {"range step negative", [](json& j) { j["parameters"]["ema_slow"]["range"]["step"] = -5; },
         "/parameters/ema_slow/range/step", "expected a positive number, got -5"},
        {"range missing step", [](json& j) { j["parameters"]["ema_slow"]["range"].erase("step"); }, "/parameters/ema_slow/range",
         "expected key \"step\""},
        {"range unknown key", [](json& j) { j["parameters"]["ema_slow"]["range"]["num"] = 3; }, "/parameters/ema_slow/range/num",
         "expected one of the keys start, stop, step, got unknown key \"num\""},
        {"range stop before start", [](json& j) { j["parameters"]["ema_slow"]["range"]["stop"] = 20; },
         "/parameters/ema_slow/range/stop", "expected a number >= start (30), got 20"},
        {"range of an int with a fractional step", [](json& j) { j["parameters"]["ema_slow"]["range"]["step"] = 2.5; },
         "/parameters/ema_slow/range/step", "expected an integer (ema_slow is an int), got 2.5"},
        {"range of an int with a fractional start", [](json& j) { j["parameters"]["ema_slow"]["range"]["start"] = 30.5; },
         "/parameters/ema_slow/range/start", "expected an integer (ema_slow is an int), got 30.5"},
        {"range starting below min", [](json& j) { j["parameters"]["ema_slow"]["range"]["start"] = 0; },
         "/parameters/ema_slow/range/start", "expected a value within [2, 400] (the bounds of ema_slow), got 0"},
        {"range running past max", [](json& j) { j["parameters"]["ema_slow"]["range"]["stop"] = 450; },
         "/parameters/ema_slow/range/stop",
         "expected a stop whose range stays within [2, 400] (the bounds of ema_slow), got 450"},
        {"range ending past max off the stop", [](json& j) { j["parameters"]["ema_slow"]["range"]["stop"] = 415; },
         "/parameters/ema_slow/range/stop", "got 415, whose range ends at 410"},
        {"range with too many values", [](json& j) { j["parameters"]["sl_atr"] = {{"range", {{"start", 0.1}, {"stop", 20}, {"step", 1e-9}}}}; },
         "/parameters/sl_atr/range/step", "expected a step giving at most 16777216 values"},
        {"range for a bool", [](json& j) { j["parameters"]["allow_short"] = {{"range", {{"start", 0}, {"stop", 1}, {"step", 1}}}}; },
         "/parameters/allow_short/range", "expected \"values\" or a single value (allow_short is a bool), got \"range\""},
        {"log_range num 1", [](json& j) { j["parameters"]["sl_atr"]["log_range"]["num"] = 1; }, "/parameters/sl_atr/log_range/num",
         "expected an integer >= 2, got 1"},
        {"log_range num fractional", [](json& j) { j["parameters"]["sl_atr"]["log_range"]["num"] = 2.5; },
         "/parameters/sl_atr/log_range/num", "expected an integer >= 2, got 2.5"},
        {"log_range start zero", [](json& j) { j["parameters"]["sl_atr"]["log_range"]["start"] = 0; },
         "/parameters/sl_atr/log_range/start", "expected a positive number, got 0"},
        {"log_range descending", [](json& j) { j["parameters"]["sl_atr"]["log_range"]["stop"] = 0.5; },
         "/parameters/sl_atr/log_range/stop", "expected a number > start (1), got 0.5"},
        {"log_range past max", [](json& j) { j["parameters"]["sl_atr"]["log_range"]["stop"] = 25; },
         "/parameters/sl_atr/log_range/stop", "expected a value within [0.1, 20] (the bounds of sl_atr), got 25"},
        {"log_range of an int rounding below min", [](json& j) {
             j["parameters"]["ema_fast"] = {{"log_range", {{"start", 1.4}, {"stop", 100}, {"num", 5}}}};
         },
         "/parameters/ema_fast/log_range/start", "got 1.4, which rounds to 1"},
        {"log_range missing num", [](json& j) { j["parameters"]["sl_atr"]["log_range"].erase("num"); },
         "/parameters/sl_atr/log_range", "expected key \"num\""},
        {"random not an object", [](json& j) { j["random"] = 10; }, "/random", "expected an object with count and seed, got 10"},
        {"random count above the space", [](json& j) { j["random"] = {{"count", 1000}, {"seed", 7}}; }, "/random/count",
         "expected at most 48 (the size of the grid's combination space), got 1000"},
        {"random count zero", [](json& j) { j["random"] = {{"count", 0}, {"seed", 7}}; }, "/random/count",
         "expected an integer >= 1, got 0"},
        {"random count negative", [](json& j) { j["random"] = {{"count", -3}, {"seed", 7}}; }, "/random/count",
         "expected an integer >= 1, got -3"},
        {"random seed negative", [](json& j) { j["random"] = {{"count", 3}, {"seed", -1}}; }, "/random/seed",
         "expected an unsigned integer, got -1"},
        {"random seed missing", [](json& j) { j["random"] = {{"count", 3}}; }, "/random",
         "expected key \"seed\" (so that the sample can be drawn again)"},
        {"random unknown key", [](json& j) { j["random"] = {{"count", 3}, {"seed", 1}, {"replace", true}}; }, "/random/replace",
         "expected one of the keys count, seed, got unknown key \"replace\""},
    };
    for (const auto& c : cases) {
        const std::string name = c.name;
        CAPTURE(name);
        json document = json::parse(kGridJson);
        c.mutate(document);
        try {
            parse_grid(document.dump(), "grid.json", spec);
            FAIL("accepted: " << c.name);
        } catch (const SpecError& e) {
            CHECK(e.origin() == "grid.json");
            CHECK(e.json_pointer() == c.pointer);
            CHECK_MESSAGE(e.message().find(c.message) != std::string::npos, e.what());
        }
    }
}

TEST_CASE("grid error messages read origin: pointer: expected, got") {
    const StrategySpec spec = test::default_spec();
    try {
        parse_grid(R"({"strategy": "default", "parameters": {"ema_slow": {"range": {"start": 30, "stop": 90, "step": 0}}}})",
                   "grid.json", spec);
        FAIL("accepted");
    } catch (const SpecError& e) {
        CHECK(std::string(e.what()) == "grid.json: /parameters/ema_slow/range/step: expected a positive number, got 0");
    }
    try {
        parse_grid("{\"strategy\": \"default\",\n \"parameters\": {\"ema_fast\": [1, 2}}", "grid.json", spec);
        FAIL("accepted");
    } catch (const SpecError& e) {
        REQUIRE(e.position().has_value());
        CHECK(e.position()->line == 2);
        CHECK(std::string(e.what()).rfind("grid.json:2:", 0) == 0);
    }
}

TEST_CASE("a grid whose space exceeds 2^63 is rejected") {
    // Seven parameters of 1001 values: 1001^7 ~ 1.007e21 > 2^63 ~ 9.22e18.
    json spec_json = {{"strategy", "wide"}, {"parameters", json::array()}};
    json grid_json = {{"strategy", "wide"}, {"parameters", json::object()}};
    for (int i = 0; i < 7; ++i) {
        const std::string name = std::string("p").append(std::to_string(i));
        spec_json["parameters"].push_back(
            {{"name", name}, {"type", "int"}, {"default", 0}, {"min", 0}, {"max", 1000}, {"series", false}});
        grid_json["parameters"][name] = {{"range", {{"start", 0}, {"stop", 1000}, {"step", 1}}}};
    }
    const StrategySpec spec = parse_strategy_spec(spec_json.dump(), "wide.json", test::catalog());
    try {
        parse_grid(grid_json.dump(), "wide_grid.json", spec);
        FAIL("accepted");
    } catch (const SpecError& e) {
        CHECK(e.json_pointer() == "/parameters");
        CHECK(e.message().find("at most 2^63") != std::string::npos);
    }
    grid_json["parameters"].erase("p6");  // 1001^6 ~ 1.006e18 fits
    CHECK(parse_grid(grid_json.dump(), "wide_grid.json", spec).axes.size() == 7);
}

}  // namespace
}  // namespace btforge
