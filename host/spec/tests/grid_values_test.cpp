// Long value lists and Note [Repeated grid values].
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "host/spec/grid.h"
#include "host/io/number_format.h"
#include "host/spec/spec_error.h"
#include "host/spec/tests/spec_fixtures.h"

namespace btforge {
namespace {

// A grid whose bb_k (a double in [0.5, 5]) lists `values`.
std::string bb_k_grid(const std::vector<std::string>& values) {
    std::string text = R"({"strategy": "default", "parameters": {"bb_k": {"values": [)";
    for (std::size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + values[i];
    return text + "]}}}";
}

std::string error_of(const std::string& text) {
    try {
        parse_grid(text, "grid.json", test::default_spec());
    } catch (const SpecError& e) {
        return e.what();
    }
    return "<no error>";
}

TEST_CASE("a repeated value names the first repeat in list order and the value's first place") {
    struct Case {
        std::vector<std::string> values;
        std::string error;  // "" when accepted
    };
    const std::string at = "grid.json: /parameters/bb_k/values/";
    const std::vector<Case> cases = {
        {{"1", "2", "3"}, ""},
        {{"1", "2", "1"}, at + "2: expected a value not listed before, got 1 again (already at /parameters/bb_k/values/0)"},
        {{"1", "1", "1"}, at + "1: expected a value not listed before, got 1 again (already at /parameters/bb_k/values/0)"},
        {{"3", "2", "2", "3"}, at + "2: expected a value not listed before, got 2 again (already at /parameters/bb_k/values/1)"},
        {{"4", "1", "4", "1"}, at + "2: expected a value not listed before, got 4 again (already at /parameters/bb_k/values/0)"},
        {{"2", "1", "3", "1", "2"}, at + "3: expected a value not listed before, got 1 again (already at /parameters/bb_k/values/1)"},
        {{"1.5", "2", "1.50"}, at + "2: expected a value not listed before, got 1.5 again (already at /parameters/bb_k/values/0)"},
        {{"2", "2.0000000000000001"}, at + "1: expected a value not listed before, got 2 again (already at /parameters/bb_k/values/0)"},
        {{"2", "2.0000000000000004"}, ""},
    };
    for (const Case& c : cases) {
        const std::string text = bb_k_grid(c.values);
        CAPTURE(text);
        CHECK(error_of(text) == (c.error.empty() ? "<no error>" : c.error));
    }
}

TEST_CASE("a list of 2^20 values parses, and a repeat at its end is found") {
    // Distinct doubles in [0.5, 5]. Before, the repeat check compared each
    // value with every earlier one: 5e11 comparisons here, minutes of work.
    constexpr std::size_t n = std::size_t{1} << 20;
    std::vector<std::string> values;
    values.reserve(n + 1);
    for (std::size_t i = 0; i < n; ++i) values.push_back(format_double(0.5 + static_cast<double>(i) * 4e-6));
    const Grid grid = parse_grid(bb_k_grid(values), "grid.json", test::default_spec());
    const std::vector<double>& parsed = grid.axes.at(*test::default_spec().parameter_index("bb_k")).values;
    REQUIRE(parsed.size() == n);
    CHECK(parsed.front() == 0.5);
    CHECK(format_double(parsed.back()) == values.back());

    values.push_back(values[n / 3]);
    CHECK(error_of(bb_k_grid(values)) == "grid.json: /parameters/bb_k/values/" + std::to_string(n) +
                                             ": expected a value not listed before, got " + values[n / 3] +
                                             " again (already at /parameters/bb_k/values/" + std::to_string(n / 3) + ")");
}

}  // namespace
}  // namespace btforge
