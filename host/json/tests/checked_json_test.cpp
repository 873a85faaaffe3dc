#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "host/json/checked_json.h"

namespace btforge {
namespace {

struct Rejected {
    const char* name;
    std::string text;
    const char* rule;
    std::size_t line;      // 0: located by pointer
    std::size_t column;
    std::string pointer;
    std::string message;   // the whole message
};

JsonInputError error_of(const std::string& text) {
    try {
        (void)parse_checked_json(text, "doc.json");
    } catch (const JsonInputError& e) {
        return e;
    }
    FAIL("accepted: " << text.substr(0, 80));
    return JsonInputError("", 0, 0, "", "", "");
}

std::string nested_arrays(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

std::string nested_objects(std::size_t depth) {
    std::string text;
    for (std::size_t i = 0; i < depth; ++i) text += "{\"k\":";
    text += "1";
    text += std::string(depth, '}');
    return text;
}

const std::string kTooDeep = "expected arrays and objects nested at most 64 levels deep, got a deeper one here";
const std::string kOverflow = "expected a number of magnitude at most 1.7976931348623157e308 (the double range), got ";

TEST_CASE("documents within the limits parse as nlohmann would") {
    for (const std::string& text :
         {nested_arrays(64), nested_objects(64), std::string(R"({"a": "[[[[", "b": [1e308, -1.7976931348623157e308]})"),
          std::string("[\"" + std::string(100, '{') + "\", " + nested_arrays(63) + "]"),
          std::string(R"({"a": 1e-400, "b": 18446744073709551616})")}) {
        CAPTURE(text.substr(0, 80));
        CHECK(parse_checked_json(text, "doc.json") == nlohmann::json::parse(text));
    }
}

TEST_CASE("rule violations name the rule and the place") {
    const std::vector<Rejected> cases = {
        {"65 nested arrays", nested_arrays(65), "too-deep", 1, 65, "", kTooDeep},
        {"100 000 nested arrays", nested_arrays(100000), "too-deep", 1, 65, "", kTooDeep},
        {"100 000 nested objects", nested_objects(100000), "too-deep", 1, 5 * 64 + 1, "", kTooDeep},
        {"unclosed deep arrays", std::string(100000, '['), "too-deep", 1, 65, "", kTooDeep},
        {"brackets inside strings do not count",
         "{\"a\": \"[{[{\\\"[\",\n \"b\": " + nested_arrays(65) + "}", "too-deep", 2, 7 + 63, "", kTooDeep},
        {"1e999", "{\n  \"a\": [1, 1e999]\n}", "number-out-of-range", 2, 12, "", kOverflow + "1e999"},
        {"-1e999", "[-1e999]", "number-out-of-range", 1, 2, "", kOverflow + "-1e999"},
        {"1.8e308 at the end of the text", "1.8e308", "number-out-of-range", 1, 1, "", kOverflow + "1.8e308"},
        {"a long overflowing number", "[ 123456789" + std::string(400, '0') + ".5 ]", "number-out-of-range", 1, 3,
         "", kOverflow + "123456789" + std::string(400, '0') + ".5"},
        {"repeated key", R"({"a": [{"x": 1}, {"x": 1, "y": 2, "x": 3}]})", "duplicate-key", 0, 0, "/a/1/x",
         "expected each key at most once in an object, got \"x\" again"},
        {"repeated escaped key", R"({"a/b": {"~": 1, "~": 2}})", "duplicate-key", 0, 0, "/a~1b/~0",
         "expected each key at most once in an object, got \"~\" again"},
        {"repeated key at the root", R"({"a": 1, "a": 1})", "duplicate-key", 0, 0, "/a",
         "expected each key at most once in an object, got \"a\" again"},
        {"syntax error", "{\n  \"a\": [1,]\n}", "bad-json", 2, 11, "",
         "invalid JSON: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal"},
    };
    for (const Rejected& c : cases) {
        CAPTURE(c.name);
        const JsonInputError e = error_of(c.text);
        CHECK(e.rule() == c.rule);
        CHECK(e.origin() == "doc.json");
        CHECK(e.line() == c.line);
        CHECK(e.column() == c.column);
        CHECK(e.json_pointer() == c.pointer);
        CHECK(e.message() == c.message);
        const std::string where = c.line > 0 ? "doc.json:" + std::to_string(c.line) + ":" + std::to_string(c.column)
                                             : "doc.json: " + c.pointer;
        CHECK(std::string(e.what()) == where + ": " + c.message);
    }
}

TEST_CASE("a document is at most 64 MiB") {
    std::string text = "[1" + std::string(kMaxJsonDocumentBytes - 3, ' ') + "]";
    REQUIRE(text.size() == kMaxJsonDocumentBytes);
    CHECK(parse_checked_json(text, "doc.json") == nlohmann::json::array({1}));
    text.insert(1, " ");
    const JsonInputError e = error_of(text);
    CHECK(e.rule() == "too-large");
    CHECK(std::string(e.what()) ==
          "doc.json: expected a JSON document of at most 64 MiB (67108864 bytes), got 67108865 bytes");
}

TEST_CASE("read_json_file reads at most 64 MiB") {
    const char* tmp = std::getenv("TMPDIR");
    const std::filesystem::path dir =
        std::filesystem::path(tmp ? tmp : "/tmp") / ("btforge-json-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto rule_of = [&](const std::filesystem::path& file) -> std::string {
        try {
            (void)read_json_file(file, file.string());
        } catch (const JsonInputError& e) {
            CHECK(e.origin() == file.string());
            return e.rule() + ": " + e.message();
        }
        return "read";
    };
    {
        std::ofstream(dir / "small.json") << "{\"a\": 1}";
        CHECK(read_json_file(dir / "small.json", "small.json") == "{\"a\": 1}");
        std::ofstream(dir / "limit.json") << std::string(kMaxJsonDocumentBytes, ' ');
        CHECK(rule_of(dir / "limit.json") == "read");
        std::ofstream(dir / "over.json") << std::string(kMaxJsonDocumentBytes + 1, ' ');
        CHECK(rule_of(dir / "over.json") ==
              "too-large: expected a JSON document of at most 64 MiB (67108864 bytes), got a larger file");
    }
    CHECK(rule_of(dir / "absent.json") == "cannot-read: no such file");
    CHECK(rule_of(dir) == "not-a-regular-file: is a directory, not a JSON file");
    // Note [Reading input files]: a device is refused before a byte is read.
    CHECK(rule_of("/dev/zero") == "not-a-regular-file: is a character device, not a JSON file");
    std::filesystem::remove_all(dir);
}

TEST_CASE("JSON pointers escape '~' and '/'") {
    CHECK(json_pointer_child("", "a") == "/a");
    CHECK(json_pointer_child("/a", "b/c~d") == "/a/b~1c~0d");
    CHECK(json_pointer_child("/a", std::size_t{12}) == "/a/12");
    CHECK(json_pointer_child("", "") == "/");
}

}  // namespace
}  // namespace btforge
