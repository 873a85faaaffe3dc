// Instruments files under Note [Checked JSON documents] and Note [Instrument
// size range] (issue 13: no input that crashes, hangs or lies).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "host/data/data_error.h"
#include "host/data/instruments.h"
#include "host/io/tests/temp_dir.h"
#include "host/json/checked_json.h"

namespace btforge {
namespace {

using testing::TempDir;

std::string error_of(const std::string& text) {
    try {
        (void)parse_instruments(text, "inst.json");
    } catch (const DataError& e) {
        return e.what();
    }
    return "<no error>";
}

const std::string kOverflow = "expected a number of magnitude at most 1.7976931348623157e308 (the double range), got ";

TEST_CASE("instruments: the checked JSON reader's rules, as DataErrors") {
    struct Case {
        const char* name;
        std::string text;
        std::string error;
    };
    const std::vector<Case> cases = {
        // Before: a stack overflow (segmentation fault) in the parser callback.
        {"nested 100 000 deep", "{\"A\": " + std::string(100000, '[') + std::string(100000, ']') + "}",
         "inst.json:1:" + std::to_string(7 + 63) +
             ": too-deep: expected arrays and objects nested at most 64 levels deep, got a deeper one here"},
        // Before: nlohmann's out_of_range exception, not a DataError, naming no file.
        {"1e999", "{\"A\": {\n  \"qty_step\": 1e999}}", "inst.json:2:15: number-out-of-range: " + kOverflow + "1e999"},
        {"-1e999", "{\"A\": {\"min_qty\": -1e999}}", "inst.json:1:19: number-out-of-range: " + kOverflow + "-1e999"},
        {"repeated key", R"({"A": {"qty_step": 1, "qty_step": 2}})",
         "inst.json: duplicate-key: /A/qty_step: expected each key at most once in an object, got \"qty_step\" again"},
        {"not JSON", "{\"A\": {}", "inst.json:1:9: bad-json: invalid JSON: syntax error while parsing object - "
                                   "unexpected end of input; expected '}'"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.name);
        CHECK(error_of(c.text) == c.error);
    }
}

TEST_CASE("instruments: qty_step, min_qty and price_tick lie in [1e-12, 1e9]") {
    struct Case {
        const char* value;
        bool accepted;
    };
    // Before: every positive finite number was accepted, subnormals included.
    const std::vector<Case> cases = {
        {"1e-12", true}, {"1e9", true}, {"0.001", true}, {"1", true},
        {"9.9999999999999e-13", false}, {"1e-320", false}, {"5e-324", false}, {"1.000000001e9", false},
        {"1e300", false}, {"1.7976931348623157e308", false},
    };
    for (const char* key : {"qty_step", "min_qty", "price_tick"}) {
        for (const Case& c : cases) {
            const std::string text = std::string("{\"A\": {\"") + key + "\": " + c.value + "}}";
            CAPTURE(text);
            const std::string what = error_of(text);
            if (c.accepted) {
                CHECK(what == "<no error>");
            } else {
                CHECK(what.rfind(std::string("inst.json: out-of-range: /A/") + key +
                                     ": expected a number in [1e-12, 1e9] (the accounting rounds to 1e-12, so a "
                                     "finer size is erased), got ",
                                 0) == 0);
            }
        }
    }
    CHECK(parse_instruments(R"({"A": {"qty_step": 1e-12, "price_tick": 1e9}})", "inst.json").at("A").qty_step == 1e-12);
}

TEST_CASE("instruments: files are read up to 64 MiB") {
    TempDir dir;
    const auto error_of_file = [&](const std::filesystem::path& file) -> std::string {
        try {
            (void)load_instruments(file);
        } catch (const DataError& e) {
            return e.what();
        }
        return "<no error>";
    };
    const auto over = dir.write("over.json", "{}" + std::string(kMaxJsonDocumentBytes, ' '));
    CHECK(error_of_file(over) == over.string() +
                                     ": too-large: expected a JSON document of at most 64 MiB (67108864 bytes), "
                                     "got a larger file");
    CHECK(error_of_file(dir.path()) == dir.path().string() + ": not-a-regular-file: is a directory, not a JSON file");
    CHECK(error_of_file("/dev/zero") == "/dev/zero: not-a-regular-file: is a character device, not a JSON file");
    CHECK(error_of_file(dir.path() / "absent.json") ==
          (dir.path() / "absent.json").string() + ": cannot-read: no such file");
}

}  // namespace
}  // namespace btforge
