#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/spec/spec_error.h"
#include "host/spec/strategy_spec.h"
#include "host/spec/tests/spec_fixtures.h"

namespace btforge {
namespace {

using nlohmann::json;

struct MalformedSpec {
    const char* name;
    std::function<void(json&)> mutate;
    const char* pointer;
    const char* message;  // a substring of SpecError::message()
};

std::string error_of(const std::string& text) {
    try {
        parse_strategy_spec(text, "spec.json", test::catalog());
    } catch (const SpecError& e) {
        return e.what();
    }
    return "<no error>";
}

TEST_CASE("a valid spec parses into the model") {
    const StrategySpec spec = test::default_spec();
    CHECK(spec.name == "default");
    CHECK(spec.origin == "spec.json");
    CHECK(spec.description == "EMA trend / Bollinger mean reversion, ATR stops");
    CHECK(spec.account.initial_equity == 10000);
    CHECK(spec.account.taker_fee == 0.0005);
    REQUIRE(spec.parameters.size() == 7);

    const ParameterSpec& fast = spec.parameters[0];
    CHECK(fast.name == "ema_fast");
    CHECK(fast.type == ParameterType::Int);
    CHECK(fast.default_value == 12);
    CHECK(fast.min == 2);
    CHECK(fast.max == 400);
    CHECK(fast.series);
    CHECK(fast.description == "fast EMA period");
    CHECK(fast.json_path == "/parameters/0");

    const ParameterSpec& allow_short = spec.parameters[6];
    CHECK(allow_short.type == ParameterType::Bool);
    CHECK(allow_short.default_value == 1.0);
    CHECK(allow_short.min == 0.0);
    CHECK(allow_short.max == 1.0);
    CHECK_FALSE(allow_short.series);
    CHECK(allow_short.json_path == "/parameters/6");

    CHECK(spec.parameter_index("bb_k") == 5);
    CHECK_FALSE(spec.parameter_index("nope").has_value());
    CHECK(spec.indicator_index("atr") == 4);

    REQUIRE(spec.indicators.size() == 5);
    const IndicatorUse& ema = spec.indicators[0];
    CHECK(ema.output == "value");  // the first output when none is named
    REQUIRE(ema.args.size() == 1);
    CHECK(ema.args[0].name == "period");
    CHECK(ema.args[0].parameter == 0);

    // Arguments follow the signature's order, whatever the JSON's.
    const IndicatorUse& lower = spec.indicators[3];
    CHECK(lower.indicator == "BBANDS");
    CHECK(lower.output == "lower");
    CHECK(lower.json_path == "/indicators/3");
    REQUIRE(lower.args.size() == 2);
    CHECK(lower.args[0].name == "period");
    CHECK(lower.args[0].parameter == 4);
    CHECK(lower.args[1].name == "k");
    CHECK(lower.args[1].parameter == 5);

    const IndicatorUse& atr = spec.indicators[4];
    REQUIRE(atr.args.size() == 1);
    CHECK_FALSE(atr.args[0].parameter.has_value());
    CHECK(atr.args[0].literal == 14);
}

TEST_CASE("optional parts of a spec take their defaults") {
    const char* text = R"({"strategy": "bare", "parameters": [
        {"name": "flag", "type": "bool", "default": 0, "series": false}]})";
    const StrategySpec spec = parse_strategy_spec(text, "<embedded default>", test::catalog());
    CHECK(spec.origin == "<embedded default>");
    CHECK(spec.description.empty());
    CHECK(spec.account.initial_equity == 10000);
    CHECK(spec.account.maker_fee == 0.0002);
    CHECK(spec.account.taker_fee == 0.0005);
    CHECK(spec.account.slippage == 0.0002);
    CHECK(spec.indicators.empty());
    CHECK(spec.parameters.at(0).default_value == 0.0);
    CHECK(to_string(spec.parameters.at(0).type) == "bool");
}

TEST_CASE("malformed specs are rejected with their own message and JSON pointer") {
    const std::vector<MalformedSpec> cases = {
        {"root is not an object", [](json& j) { j = json::array(); }, "", "expected a strategy spec object, got an empty array"},
        {"missing strategy", [](json& j) { j.erase("strategy"); }, "", "expected key \"strategy\", got an object without it"},
        {"strategy not an identifier", [](json& j) { j["strategy"] = "Default"; }, "/strategy", "expected an identifier"},
        {"strategy not a string", [](json& j) { j["strategy"] = 1; }, "/strategy", "expected an identifier ([a-z][a-z0-9_]*), got 1"},
        {"parameter name a keyword", [](json& j) { j["parameters"][1]["name"] = "double"; }, "/parameters/1/name",
         "not a C++ keyword), got \"double\""},
        {"indicator id a keyword", [](json& j) { j["indicators"][4]["id"] = "new"; }, "/indicators/4/id", "not a C++ keyword"},
        {"unknown top-level key", [](json& j) { j["paramters"] = json::array(); }, "/paramters", "got unknown key \"paramters\""},
        {"description not a string", [](json& j) { j["description"] = 3; }, "/description", "expected a string, got 3"},
        {"account not an object", [](json& j) { j["account"] = 5; }, "/account", "expected an account object, got 5"},
        {"unknown account key", [](json& j) { j["account"]["fee"] = 0.1; }, "/account/fee", "got unknown key \"fee\""},
        {"initial equity zero", [](json& j) { j["account"]["initial_equity"] = 0; }, "/account/initial_equity",
         "expected a positive number of at most 1e12, got 0"},
        {"fee written as a percent", [](json& j) { j["account"]["taker_fee"] = 0.5; }, "/account/taker_fee",
         "expected a fraction of notional in [0, 0.1), got 0.5"},
        {"negative slippage", [](json& j) { j["account"]["slippage"] = -0.001; }, "/account/slippage", "got -0.001"},
        {"fee not a number", [](json& j) { j["account"]["maker_fee"] = "x"; }, "/account/maker_fee", "expected a number, got \"x\""},
        {"parameters missing", [](json& j) { j.erase("parameters"); }, "", "expected key \"parameters\""},
        {"parameters not an array", [](json& j) { j["parameters"] = json::object(); }, "/parameters",
         "expected an array of parameter objects, got an empty object"},
        {"parameter not an object", [](json& j) { j["parameters"][1] = "sl_atr"; }, "/parameters/1",
         "expected a parameter object, got \"sl_atr\""},
        {"parameter missing name", [](json& j) { j["parameters"][1].erase("name"); }, "/parameters/1", "expected key \"name\""},
        {"parameter name not an identifier", [](json& j) { j["parameters"][1]["name"] = "sl-atr"; }, "/parameters/1/name",
         "expected an identifier"},
        {"parameter name reserved", [](json& j) { j["parameters"][1]["name"] = "sl__atr"; }, "/parameters/1/name", "no \"__\""},
        {"parameter missing type", [](json& j) { j["parameters"][1].erase("type"); }, "/parameters/1", "expected key \"type\""},
        {"parameter type unknown", [](json& j) { j["parameters"][1]["type"] = "float"; }, "/parameters/1/type",
         "expected one of \"int\", \"double\", \"bool\", got \"float\""},
        {"parameter series missing", [](json& j) { j["parameters"][1].erase("series"); }, "/parameters/1",
         "expected key \"series\" (true when the parameter changes an indicator series)"},
        {"parameter series not a bool", [](json& j) { j["parameters"][1]["series"] = "yes"; }, "/parameters/1/series",
         "expected true or false, got \"yes\""},
        {"unknown parameter key", [](json& j) { j["parameters"][1]["mni"] = 0; }, "/parameters/1/mni",
         "expected one of the keys name, type, default, min, max, series, description, read_when, got unknown key \"mni\""},
        {"description of a parameter not a string", [](json& j) { j["parameters"][1]["description"] = false; },
         "/parameters/1/description", "expected a string, got false"},
        {"int missing min", [](json& j) { j["parameters"][0].erase("min"); }, "/parameters/0",
         "expected key \"min\" (required for int parameters)"},
        {"double missing default", [](json& j) { j["parameters"][1].erase("default"); }, "/parameters/1",
         "expected key \"default\" (required for double parameters)"},
        {"default above max", [](json& j) { j["parameters"][0]["default"] = 500; }, "/parameters/0/default",
         "expected a number within [min, max] = [2, 400], got 500"},
        {"default below min", [](json& j) { j["parameters"][1]["default"] = 0.05; }, "/parameters/1/default",
         "expected a number within [min, max] = [0.1, 20], got 0.05"},
        {"min above max", [](json& j) { j["parameters"][1]["min"] = 30; }, "/parameters/1/max",
         "expected a number >= min (30), got 20"},
        {"non-integral int default", [](json& j) { j["parameters"][0]["default"] = 12.5; }, "/parameters/0/default",
         "expected an integer (the parameter is an int), got 12.5"},
        {"non-integral int bound", [](json& j) { j["parameters"][0]["max"] = 400.5; }, "/parameters/0/max", "expected an integer"},
        {"int bound beyond int32", [](json& j) { j["parameters"][0]["max"] = 3e9; }, "/parameters/0/max", "int32 range"},
        {"bound not a number", [](json& j) { j["parameters"][0]["min"] = "2"; }, "/parameters/0/min", "expected a number, got \"2\""},
        {"bool with min", [](json& j) { j["parameters"][6]["min"] = 0; }, "/parameters/6/min",
         "expected no \"min\" (a bool parameter is 0 or 1), got 0"},
        {"bool default out of range", [](json& j) { j["parameters"][6]["default"] = 2; }, "/parameters/6/default",
         "expected true, false, 0 or 1, got 2"},
        {"bool missing default", [](json& j) { j["parameters"][6].erase("default"); }, "/parameters/6", "expected key \"default\""},
        {"duplicate parameter name", [](json& j) { j["parameters"][2]["name"] = "ema_fast"; }, "/parameters/2/name",
         "expected a name no other parameter has, got \"ema_fast\", already declared at /parameters/0"},
        {"indicators not an array", [](json& j) { j["indicators"] = 1; }, "/indicators", "expected an array of indicator objects"},
        {"indicator not an object", [](json& j) { j["indicators"][0] = json::array(); }, "/indicators/0",
         "expected an indicator object"},
        {"unknown indicator key", [](json& j) { j["indicators"][0]["outputs"] = "value"; }, "/indicators/0/outputs",
         "expected one of the keys id, indicator, output, input, params, got unknown key \"outputs\""},
        // Note [Indicator input column]
        {"input column unknown", [](json& j) { j["indicators"][0]["input"] = "hl2"; }, "/indicators/0/input",
         "expected one of the price columns EMA can read (open, high, low, close, volume), got \"hl2\""},
        {"input column not a string", [](json& j) { j["indicators"][0]["input"] = 3; }, "/indicators/0/input",
         "expected a string, got 3"},
        {"input column of an indicator of several inputs", [](json& j) { j["indicators"][4]["input"] = "close"; },
         "/indicators/4/input",
         "expected no \"input\": ATR reads high, low, close, and only an indicator of one input column can read "
         "another, got \"close\""},
        {"indicator id missing", [](json& j) { j["indicators"][0].erase("id"); }, "/indicators/0", "expected key \"id\""},
        {"duplicate indicator id", [](json& j) { j["indicators"][1]["id"] = "ema_fast"; }, "/indicators/1/id",
         "expected an id no other indicator has, got \"ema_fast\", already used at /indicators/0"},
        // Note [Parameter domains] (issue 29): a literal outside the domain was
        // refused later by the indicator, without file or JSON path.
        {"literal period not an integer", [](json& j) { j["indicators"][4]["params"]["period"] = 2.5; },
         "/indicators/4/params/period", "expected ATR's period: an integer from 1 to 100000, got 2.5"},
        {"literal period zero", [](json& j) { j["indicators"][4]["params"]["period"] = 0; },
         "/indicators/4/params/period", "expected ATR's period: an integer from 1 to 100000, got 0"},
        {"literal period above the domain", [](json& j) { j["indicators"][4]["params"]["period"] = 100001; },
         "/indicators/4/params/period", "got 100001"},
        {"a double parameter bound to a period", [](json& j) { j["parameters"][0]["type"] = "double"; },
         "/indicators/0/params/period",
         "expected a parameter whose values all lie in EMA's period: an integer from 1 to 100000, got \"ema_fast\", "
         "declared at /parameters/0 as a number from 2 to 400"},
        {"a parameter whose range leaves the domain", [](json& j) { j["parameters"][4]["min"] = 1; },
         "/indicators/2/params/period", "declared at /parameters/4 as an integer from 1 to 400"},
        {"unknown indicator", [](json& j) { j["indicators"][0]["indicator"] = "EMAX"; }, "/indicators/0/indicator",
         "expected one of the known indicators (ATR, BBANDS, EMA, SMA), got \"EMAX\""},
        {"unknown output", [](json& j) { j["indicators"][2]["output"] = "top"; }, "/indicators/2/output",
         "expected one of BBANDS's outputs (upper, middle, lower), got \"top\""},
        {"params missing", [](json& j) { j["indicators"][0].erase("params"); }, "/indicators/0",
         "expected key \"params\" (EMA takes period)"},
        {"params not an object", [](json& j) { j["indicators"][0]["params"] = json::array({1}); }, "/indicators/0/params",
         "expected an object giving EMA's parameters (period), got an array"},
        {"indicator parameter missing", [](json& j) { j["indicators"][2]["params"].erase("k"); }, "/indicators/2/params",
         "expected key \"k\" (BBANDS takes period, k), got an object without it"},
        {"indicator parameter unknown", [](json& j) { j["indicators"][0]["params"]["length"] = 3; },
         "/indicators/0/params/length", "expected one of EMA's parameters (period), got unknown key \"length\""},
        {"indicator argument names no parameter", [](json& j) { j["indicators"][0]["params"]["period"] = "ema_fats"; },
         "/indicators/0/params/period", "got \"ema_fats\", which is no parameter"},
        {"indicator argument of the wrong kind", [](json& j) { j["indicators"][0]["params"]["period"] = true; },
         "/indicators/0/params/period", "expected a number or the name of a series parameter, got true"},
        {"indicator using a non-series parameter",
         [](json& j) {
             j["indicators"][4]["params"]["period"] = "mode";
         },
         "/indicators/4/params/period", "got \"mode\", declared with \"series\": false at /parameters/3"},
        {"series parameter unused", [](json& j) { j["parameters"][3]["series"] = true; }, "/parameters/3/series",
         "expected \"series\": false for a parameter no indicator uses, got true (no indicator uses \"mode\")"},
    };
    for (const auto& c : cases) {
        const std::string name = c.name;
        CAPTURE(name);
        json document = json::parse(test::kSpecJson);
        c.mutate(document);
        try {
            parse_strategy_spec(document.dump(2), "spec.json", test::catalog());
            FAIL("accepted: " << c.name);
        } catch (const SpecError& e) {
            CHECK(e.origin() == "spec.json");
            CHECK(e.json_pointer() == c.pointer);
            CHECK_MESSAGE(e.message().find(c.message) != std::string::npos, e.what());
            const std::string located = std::string("spec.json: ") + (*c.pointer ? std::string(c.pointer) + ": " : "");
            CHECK(std::string(e.what()).rfind(located + "expected ", 0) == 0);
        }
    }
}

TEST_CASE("Note [Indicator input column]: a one-input indicator reads its own column unless the spec names one") {
    json document = json::parse(test::kSpecJson);
    document["indicators"][1]["input"] = "high";
    const StrategySpec spec = parse_strategy_spec(document.dump(2), "spec.json", test::catalog());
    CHECK(spec.indicators[0].input == "close");  // EMA's own
    CHECK(spec.indicators[1].input == "high");
    CHECK(spec.indicators[2].input == "close");  // BBANDS's own
    CHECK(spec.indicators[4].input.empty());     // ATR reads three columns
}

TEST_CASE("text that is not JSON is reported with line and column") {
    SUBCASE("syntax error") {
        try {
            parse_strategy_spec("{\n  \"strategy\": \"x\",\n  \"parameters\": [}\n}", "spec.json", test::catalog());
            FAIL("accepted");
        } catch (const SpecError& e) {
            REQUIRE(e.position().has_value());
            CHECK(e.position()->line == 3);
            CHECK(e.position()->column == 18);
            CHECK(std::string(e.what()).rfind("spec.json:3:18: invalid JSON: syntax error", 0) == 0);
            CHECK(std::string(e.what()).find("json.exception") == std::string::npos);
        }
    }
    SUBCASE("empty input") {
        CHECK(error_of("").rfind("spec.json:1:1: invalid JSON: ", 0) == 0);
    }
    SUBCASE("number too large") {
        const std::string what = error_of("{\"strategy\": 1e400}");
        CHECK(what == "spec.json:1:14: expected a number of magnitude at most 1.7976931348623157e308 (the double "
                      "range), got 1e400");
    }
    SUBCASE("a key repeated in one object") {
        const std::string text = R"({"strategy": "a", "parameters": [
            {"name": "x", "type": "double", "default": 1, "min": 0, "max": 2, "min": 1, "series": false}]})";
        CHECK(error_of(text) == "spec.json: /parameters/0/min: expected each key at most once in an object, got \"min\" again");
    }
    SUBCASE("trailing garbage") {
        CHECK(error_of("{\"strategy\": \"a\", \"parameters\": []} x").find("invalid JSON") != std::string::npos);
    }
}

TEST_CASE("JSON pointers escape '~' and '/'") {
    CHECK(error_of(R"({"strategy": "a", "parameters": [], "a/b~c": 1})").find("/a~1b~0c: ") != std::string::npos);
}

}  // namespace
}  // namespace btforge
