#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "host/spec/assignments.h"
#include "host/io/number_format.h"
#include "host/spec/spec_error.h"
#include "host/spec/tests/spec_fixtures.h"

namespace btforge {
namespace {

TEST_CASE("format_double prints the shortest text that reads back exactly") {
    CHECK(format_double(0.1) == "0.1");
    CHECK(format_double(2.0) == "2");
    CHECK(format_double(-2.5) == "-2.5");
    CHECK(format_double(0.0) == "0");
    CHECK(format_double(1.0 / 3.0) == "0.3333333333333333");
    CHECK(format_double(0.1 + 0.2) == "0.30000000000000004");
    CHECK(format_double(1e-7) == "1e-07");
    CHECK(format_double(123456789.0) == "123456789");
    CHECK(format_double(std::numeric_limits<double>::infinity()) == "inf");
    double x = 0.7;
    for (int i = 0; i < 1000; ++i) {
        x = std::fmod(x * 3.7 + 0.123456789, 1000.0);
        CHECK(std::stod(format_double(x)) == x);
    }
}

TEST_CASE("a combination is described as name=value pairs") {
    const StrategySpec spec = test::default_spec();
    const std::vector<double> values = {12, 0.1 + 0.2, 50, 2, 20, 2.0, 0};
    CHECK(combination_assignments(spec, values) ==
          std::vector<std::string>{"ema_fast=12", "sl_atr=0.30000000000000004", "ema_slow=50", "mode=2", "bb_period=20",
                                   "bb_k=2", "allow_short=false"});
    CHECK(describe_combination(spec, values) ==
          "ema_fast=12 sl_atr=0.30000000000000004 ema_slow=50 mode=2 bb_period=20 bb_k=2 allow_short=false");
    CHECK(describe_combination(spec, values, ",").find("ema_fast=12,sl_atr=") == 0);
    CHECK(format_parameter_value(spec.parameters[0], 400) == "400");
}

TEST_CASE("assignments start from the defaults and read back what describe printed") {
    const StrategySpec spec = test::default_spec();
    CHECK(values_from_assignments(spec, {}) == std::vector<double>{12, 2, 50, 0, 20, 2, 1});

    const std::vector<std::string> assignments = {"sl_atr=1.25", " mode = 2 ", "allow_short=0", "bb_k=4.5e0"};
    CHECK(values_from_assignments(spec, assignments) == std::vector<double>{12, 1.25, 50, 2, 20, 4.5, 0});

    const std::vector<double> values = {399, 0.1 + 0.2, 2, 1, 400, 1.0 / 3.0 + 1.0, 1};
    CHECK(values_from_assignments(spec, combination_assignments(spec, values)) == values);
}

TEST_CASE("bad assignments are rejected with the assignment and the reason") {
    const StrategySpec spec = test::default_spec();
    struct Case {
        const char* assignment;
        const char* message;
    };
    const std::vector<Case> cases = {
        {"ema_fast", "parameter assignment 'ema_fast': expected name=value, got no '='"},
        {"ema_fats=3", "parameter assignment 'ema_fats=3': expected a parameter of strategy default (ema_fast, sl_atr, "
                       "ema_slow, mode, bb_period, bb_k, allow_short), got \"ema_fats\""},
        {"ema_fast=12.5", "parameter assignment 'ema_fast=12.5': expected an integer within [2, 400] (ema_fast is an int), got \"12.5\""},
        {"ema_fast=401", "expected an integer within [2, 400] (ema_fast is an int), got \"401\""},
        {"ema_fast=", "got \"\""},
        {"sl_atr=abc", "expected a number within [0.1, 20] (the bounds of sl_atr), got \"abc\""},
        {"sl_atr=2x", "got \"2x\""},
        {"sl_atr=nan", "got \"nan\""},
        {"sl_atr=25", "got \"25\""},
        {"allow_short=yes", "expected true, false, 0 or 1 (allow_short is a bool), got \"yes\""},
    };
    for (const auto& c : cases) {
        const std::string assignment = c.assignment;
        CAPTURE(assignment);
        const std::vector<std::string> assignments = {c.assignment};
        try {
            values_from_assignments(spec, assignments);
            FAIL("accepted");
        } catch (const SpecError& e) {
            CHECK_MESSAGE(std::string(e.what()).find(c.message) != std::string::npos, e.what());
        }
    }
    const std::vector<std::string> twice = {"mode=1", "mode=2"};
    CHECK_THROWS_WITH_AS(values_from_assignments(spec, twice),
                         "parameter assignment 'mode=2': expected each parameter assigned once, got mode again", SpecError);
}

}  // namespace
}  // namespace btforge
