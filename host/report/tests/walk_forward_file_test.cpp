// Note [Reading a validation file]: what `replay --walk-forward` takes from a
// sweep's OUTPUT.validation.json, and the refusals of files that are not one.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "host/report/walk_forward_file.h"

using namespace btforge;

namespace {

// What write_validation_json writes, trimmed to what the reader reads (and
// a member it does not).
nlohmann::json good_file() {
    return nlohmann::json::parse(R"({
      "periods": 4,
      "period_spans": [
        {"first_bar_time": "t0", "last_bar_time": "u0"}, {"first_bar_time": "t1", "last_bar_time": "u1"},
        {"first_bar_time": "t2", "last_bar_time": "u2"}, {"first_bar_time": "t3", "last_bar_time": "u3"}],
      "trials": 2,
      "walk_forward": {
        "plan": "rolling:2",
        "steps": [
          {"out_of_sample_period": 2, "combination_id": 7, "selection_undefined": "x", "parameters": ["a=1", "b=2"]},
          {"out_of_sample_period": 3, "combination_id": 18446744073709551615, "parameters": []}],
        "stitched_return": -0.25,
        "efficiency": null}})");
}

// The message of refusing `doc`, or "" when it is read.
std::string refusal(const nlohmann::json& doc) {
    try {
        (void)parse_walk_forward_file(doc.dump(), "v.json");
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("a sweep's walk-forward is read back whole") {
    const WalkForwardFile file = parse_walk_forward_file(good_file().dump(), "v.json");
    CHECK(file.periods == 4);
    REQUIRE(file.period_spans.size() == 4);
    CHECK(file.period_spans[2].first == "t2");
    CHECK(file.period_spans[3].second == "u3");
    REQUIRE(file.legs.size() == 2);
    CHECK(file.legs[0].step == 1);
    CHECK(file.legs[0].combination_id == 7);
    CHECK(file.legs[0].out_of_sample_period == 2);
    CHECK(file.legs[1].combination_id == 18446744073709551615ull);
    CHECK(file.parameters[0] == std::vector<std::string>{"a=1", "b=2"});
    CHECK(file.parameters[1].empty());
    CHECK(file.stitched_return == -0.25);
}

// Before, these were read with nlohmann's get<>: its own text ("type must be
// array, but is number"), a double converted to an integer out of range
// (undefined behaviour), periods traded twice or out of order.
TEST_CASE("a file that is not a sweep's walk-forward is refused with its JSON pointer") {
    struct Case {
        const char* pointer;
        nlohmann::json value;
        const char* message;
    };
    const Case cases[] = {
        {"/periods", 1e300, "v.json: /periods: expected a whole number in 1..16, got 1e+300"},
        {"/periods", -3, "v.json: /periods: expected a whole number in 1..16, got -3"},
        {"/periods", "4", "v.json: /periods: expected a whole number in 1..16, got a string"},
        {"/periods", 17, "v.json: /periods: expected a whole number in 1..16, got 17"},
        {"/period_spans", nlohmann::json::object(), "v.json: /period_spans: expected an array, got an object"},
        {"/period_spans/1", 5, "v.json: /period_spans/1: expected an object, got a number"},
        {"/period_spans/1/first_bar_time", 5, "v.json: /period_spans/1/first_bar_time: expected a string, got a number"},
        {"/walk_forward", nlohmann::json::array(), "v.json: /walk_forward: expected an object, got an array"},
        {"/walk_forward/stitched_return", nullptr, "v.json: /walk_forward/stitched_return: expected a number, got null"},
        {"/walk_forward/steps", nlohmann::json::array(), "v.json: /walk_forward/steps: the walk-forward has no step"},
        {"/walk_forward/steps/0", "x", "v.json: /walk_forward/steps/0: expected an object, got a string"},
        {"/walk_forward/steps/0/combination_id", 1.5,
         "v.json: /walk_forward/steps/0/combination_id: expected a whole number in 0..18446744073709551615, got 1.5"},
        {"/walk_forward/steps/0/combination_id", -1,
         "v.json: /walk_forward/steps/0/combination_id: expected a whole number in 0..18446744073709551615, got -1"},
        {"/walk_forward/steps/0/out_of_sample_period", 4,
         "v.json: /walk_forward/steps/0/out_of_sample_period: expected a whole number in 1..3, got 4"},
        {"/walk_forward/steps/0/out_of_sample_period", 0,
         "v.json: /walk_forward/steps/0/out_of_sample_period: expected a whole number in 1..3, got 0"},
        {"/walk_forward/steps/1/out_of_sample_period", 2,
         "v.json: /walk_forward/steps/1/out_of_sample_period: the steps trade periods in increasing order; period 2 "
         "follows period 2"},
        {"/walk_forward/steps/0/parameters", 5, "v.json: /walk_forward/steps/0/parameters: expected an array, got a number"},
        {"/walk_forward/steps/0/parameters/1", true,
         "v.json: /walk_forward/steps/0/parameters/1: expected a string, got a boolean"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.pointer);
        nlohmann::json doc = good_file();
        doc[nlohmann::json::json_pointer(c.pointer)] = c.value;
        CHECK(refusal(doc) == c.message);
    }
    nlohmann::json missing = good_file();
    missing["walk_forward"]["steps"][1].erase("combination_id");
    CHECK(refusal(missing) == "v.json: /walk_forward/steps/1 has no \"combination_id\"");
    nlohmann::json plain = good_file();
    plain.erase("walk_forward");
    CHECK(refusal(plain).find("v.json has no walk-forward: it comes from `btforge sweep --walk-forward") == 0);
    CHECK(refusal(nlohmann::json::array()) == "v.json: the document: expected an object, got an array");
    nlohmann::json one = good_file();
    one["periods"] = 1;
    one["period_spans"] = nlohmann::json::array({one["period_spans"][0]});
    CHECK(refusal(one) == "v.json: /periods: a walk-forward needs at least 2 periods, the file has 1");
    // The checked reader's rules (Note [Checked JSON documents]) hold here too.
    try {
        (void)parse_walk_forward_file(std::string(100000, '[') + std::string(100000, ']'), "v.json");
        FAIL("a document nested 100000 deep was read");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()).find("v.json:1:65:") == 0);
    }
}
