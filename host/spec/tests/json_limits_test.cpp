// Specs and grids under Note [Checked JSON documents] and the number ranges
// of the spec (issue 13: no input that crashes, hangs or lies).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/json/checked_json.h"
#include "host/spec/grid.h"
#include "host/spec/spec_error.h"
#include "host/spec/tests/spec_fixtures.h"

namespace btforge {
namespace {

using nlohmann::json;

std::string spec_error_of(const std::string& text) {
    try {
        parse_strategy_spec(text, "spec.json", test::catalog());
    } catch (const SpecError& e) {
        return e.what();
    }
    return "<no error>";
}

std::string grid_error_of(const std::string& text) {
    try {
        parse_grid(text, "grid.json", test::default_spec());
    } catch (const SpecError& e) {
        return e.what();
    }
    return "<no error>";
}

const std::string kTooDeep = "expected arrays and objects nested at most 64 levels deep, got a deeper one here";

TEST_CASE("JSON nested 100 000 deep is refused at its 65th level, in a spec and in a grid") {
    const std::string deep(100000, '[');
    // Before: the reader kept the JSON pointer of every open level, d^2/2
    // bytes in all (about 10 GB here).
    // The first '[' opens level 2 at column 16; level 65 is 63 brackets on.
    CHECK(spec_error_of("{\"strategy\": \"a\",\n \"parameters\": " + deep + std::string(100000, ']') + "}") ==
          "spec.json:2:" + std::to_string(16 + 63) + ": " + kTooDeep);
    // The first '[' opens level 4 at column 63; level 65 is 61 brackets on.
    CHECK(grid_error_of("{\"strategy\": \"default\", \"parameters\": {\"ema_fast\": {\"values\": " + deep) ==
          "grid.json:1:" + std::to_string(63 + 61) + ": " + kTooDeep);
}

TEST_CASE("numbers beyond the double range are refused at their line and column") {
    CHECK(spec_error_of("{\"strategy\": \"a\", \"parameters\": [\n  {\"name\": \"x\", \"type\": \"double\", \"default\": "
                        "-1e999, \"min\": 0, \"max\": 1, \"series\": false}]}") ==
          "spec.json:2:46: expected a number of magnitude at most 1.7976931348623157e308 (the double range), got -1e999");
    CHECK(grid_error_of("{\"strategy\": \"default\",\n\"parameters\": {\"bb_k\": {\"values\": [2, 1e999]}}}") ==
          "grid.json:2:39: expected a number of magnitude at most 1.7976931348623157e308 (the double range), got 1e999");
}

TEST_CASE("a spec or grid document is at most 64 MiB") {
    const std::string padding(kMaxJsonDocumentBytes, ' ');
    CHECK(spec_error_of(test::kSpecJson + padding) ==
          "spec.json: expected a JSON document of at most 64 MiB (67108864 bytes), got " +
              std::to_string(std::string(test::kSpecJson).size() + padding.size()) + " bytes");
    CHECK(grid_error_of("{\"strategy\": \"default\"}" + padding).rfind("grid.json: expected a JSON document of at most 64 MiB", 0) == 0);
}

TEST_CASE("initial equity is positive and at most 1e12") {
    struct Case {
        json value;
        bool accepted;
    };
    const std::vector<Case> cases = {
        {1e12, true}, {0.01, true}, {1e-300, true},
        {1.0000000000000002e12, false}, {1e13, false}, {1e300, false}, {0, false}, {-5, false},
    };
    for (const Case& c : cases) {
        json document = json::parse(test::kSpecJson);
        document["account"]["initial_equity"] = c.value;
        CAPTURE(c.value.dump());
        const std::string what = spec_error_of(document.dump());
        if (c.accepted) {
            CHECK(what == "<no error>");
        } else {
            CHECK(what == "spec.json: /account/initial_equity: expected a positive number of at most 1e12, got " +
                              c.value.dump());
        }
    }
}

}  // namespace
}  // namespace btforge
