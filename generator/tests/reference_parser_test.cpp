#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "generator/tests/test_support.h"

namespace btforge::gen {
namespace {

using test::describe;
using test::find_entity;
using test::parse;

const std::string kClean = "generator/tests/fixtures/clean/clean.h";

std::vector<std::string> qualified_names(const ReferenceModel& model) {
    std::vector<std::string> out;
    for (const Entity& e : model.entities) out.push_back(e.qualified_name);
    return out;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST_CASE("clean fixture: entities in translation-unit order, nothing unmarked, no violations") {
    ReferenceModel model = parse({kClean});
    INFO(describe(model.violations));
    CHECK(model.violations.empty());
    CHECK(qualified_names(model) == std::vector<std::string>{
                                        "fixture::clean::kMaxPoints", "fixture::clean::Point", "fixture::clean::Path",
                                        "fixture::clean::Turn", "fixture::clean::distance",
                                        "fixture::clean::path_length", "fixture::clean::longest"});
    CHECK(model.input_files == std::vector<std::string>{"generator/tests/fixtures/clean/clean.h",
                                                        "generator/tests/fixtures/clean/geometry.h",
                                                        "reference/kernel_marker.h"});
}

TEST_CASE("clean fixture: kinds, names and locations") {
    ReferenceModel model = parse({kClean});
    REQUIRE(model.entities.size() == 7);
    CHECK(model.entities[0].kind == Entity::Kind::Constant);
    CHECK(model.entities[1].kind == Entity::Kind::Struct);
    CHECK(model.entities[3].kind == Entity::Kind::Enum);
    CHECK(model.entities[4].kind == Entity::Kind::Function);
    const Entity& distance = model.entities[4];
    CHECK(distance.name == "distance");
    CHECK(distance.location.file == kClean);
    CHECK(distance.location.line == 11);
    CHECK(distance.location.column == 25);
}

TEST_CASE("clean fixture: text runs from the leading comment to the end of the declaration") {
    ReferenceModel model = parse({kClean});
    const Entity* constant = find_entity(model, "fixture::clean::kMaxPoints");
    REQUIRE(constant != nullptr);
    CHECK(constant->text ==
          "// Upper bound on points in one path: fixed-size storage, no heap.\n"
          "BT_KERNEL inline constexpr int kMaxPoints = 4;");

    const Entity* point = find_entity(model, "fixture::clean::Point");
    REQUIRE(point != nullptr);
    CHECK(point->text == "// A point in the plane.\nstruct BT_KERNEL Point {\n    double x;\n    double y;\n};");

    const Entity* path = find_entity(model, "fixture::clean::Path");
    REQUIRE(path != nullptr);
    CHECK(starts_with(path->text, "struct BT_KERNEL Path {\n"));
    CHECK(path->text.find("// the first n are used") != std::string::npos);
    CHECK(ends_with(path->text, "char tag;\n};"));

    const Entity* turn = find_entity(model, "fixture::clean::Turn");
    REQUIRE(turn != nullptr);
    CHECK(turn->text == "enum BT_KERNEL Turn { kLeft = -1, kStraight = 0, kRight = 1 };");

    const Entity* length = find_entity(model, "fixture::clean::path_length");
    REQUIRE(length != nullptr);
    CHECK(starts_with(length->text,
                      "// Length of the polyline through the path's points,\n"
                      "// summed in point order.\n"
                      "BT_KERNEL inline double path_length(const Path& path) {\n"));
    CHECK(ends_with(length->text, "    return std::fabs(total);\n}"));

    const Entity* distance = find_entity(model, "fixture::clean::distance");
    REQUIRE(distance != nullptr);
    CHECK(starts_with(distance->text, "BT_KERNEL inline double distance("));
}

TEST_CASE("clean fixture: tokens index the text and skip comments") {
    ReferenceModel model = parse({kClean});
    const Entity* constant = find_entity(model, "fixture::clean::kMaxPoints");
    REQUIRE(constant != nullptr);
    std::vector<std::string> spellings;
    for (const Token& t : constant->tokens) spellings.push_back(t.spelling);
    CHECK(spellings ==
          std::vector<std::string>{"BT_KERNEL", "inline", "constexpr", "int", "kMaxPoints", "=", "4", ";"});
    REQUIRE(constant->tokens.size() == 8);
    CHECK(constant->tokens[0].offset == 67);
    CHECK(constant->tokens[0].kind == Token::Kind::Identifier);
    CHECK(constant->tokens[1].kind == Token::Kind::Keyword);
    CHECK(constant->tokens[5].kind == Token::Kind::Punctuation);
    CHECK(constant->tokens[6].kind == Token::Kind::Literal);

    for (const Entity& e : model.entities) {
        INFO(e.qualified_name);
        for (const Token& t : e.tokens) CHECK(e.text.compare(t.offset, t.spelling.size(), t.spelling) == 0);
        for (std::size_t i = 1; i < e.tokens.size(); ++i) CHECK(e.tokens[i - 1].offset < e.tokens[i].offset);
    }

    const Entity* length = find_entity(model, "fixture::clean::path_length");
    REQUIRE(length != nullptr);
    REQUIRE(!length->tokens.empty());
    CHECK(length->tokens.front().spelling == "BT_KERNEL");
    CHECK(length->tokens.back().spelling == "}");
    // The comment is text before the first token, carried through by the rewriter.
    CHECK(length->text.substr(0, length->tokens.front().offset) ==
          "// Length of the polyline through the path's points,\n// summed in point order.\n");
}

TEST_CASE("clean fixture: struct layout") {
    ReferenceModel model = parse({kClean});
    const Entity* point = find_entity(model, "fixture::clean::Point");
    REQUIRE(point != nullptr);
    CHECK(point->size == 16);
    CHECK(point->alignment == 8);
    REQUIRE(point->fields.size() == 2);
    CHECK(point->fields[0].name == "x");
    CHECK(point->fields[0].type == "double");
    CHECK(point->fields[0].offset == 0);
    CHECK(point->fields[0].size == 8);
    CHECK(point->fields[1].name == "y");
    CHECK(point->fields[1].offset == 8);

    const Entity* path = find_entity(model, "fixture::clean::Path");
    REQUIRE(path != nullptr);
    CHECK(path->size == 80);
    CHECK(path->alignment == 8);
    REQUIRE(path->fields.size() == 3);
    CHECK(path->fields[0].type == "int");
    CHECK(path->fields[0].offset == 0);
    CHECK(path->fields[0].size == 4);
    CHECK(path->fields[1].name == "points");
    CHECK(path->fields[1].type == "fixture::clean::Point[4]");
    CHECK(path->fields[1].offset == 8);
    CHECK(path->fields[1].size == 64);
    CHECK(path->fields[2].type == "char");
    CHECK(path->fields[2].offset == 72);
    CHECK(path->fields[2].size == 1);
}

TEST_CASE("clean fixture: callees are marked functions in first-call order") {
    ReferenceModel model = parse({kClean});
    CHECK(find_entity(model, "fixture::clean::distance")->callees.empty());
    CHECK(find_entity(model, "fixture::clean::path_length")->callees ==
          std::vector<std::string>{"fixture::clean::distance"});
    CHECK(find_entity(model, "fixture::clean::longest")->callees ==
          std::vector<std::string>{"fixture::clean::path_length", "fixture::clean::distance"});
}

std::vector<std::string> reference_headers() {
    std::vector<std::string> headers{"reference/strategies/default/default_strategy.h",
                                     "reference/strategies/sma_cross/sma_cross_strategy.h"};
    std::set<std::string> indicators;
    for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() / "reference" / "indicators")) {
        if (entry.path().extension() == ".h") indicators.insert("reference/indicators/" + entry.path().filename().string());
    }
    headers.insert(headers.end(), indicators.begin(), indicators.end());
    return headers;
}

TEST_CASE("the real reference respects the device subset and yields the expected model") {
    auto start = std::chrono::steady_clock::now();
    ReferenceModel model = parse(reference_headers());
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MESSAGE("parsed the reference in " << seconds << " s: " << model.entities.size() << " entities, "
                                       << model.input_files.size() << " files");
    INFO(describe(model.violations));
    CHECK(model.violations.empty());

    const Entity* close_fill = find_entity(model, "btforge::apply_close_fill");
    REQUIRE(close_fill != nullptr);
    CHECK(std::find(close_fill->callees.begin(), close_fill->callees.end(), "btforge::quantize") !=
          close_fill->callees.end());
    const Entity* metrics = find_entity(model, "btforge::Metrics");
    REQUIRE(metrics != nullptr);
    CHECK(metrics->kind == Entity::Kind::Struct);
    CHECK(metrics->fields.size() == 22);
    const Entity* max_symbols = find_entity(model, "btforge::kMaxSymbols");
    REQUIRE(max_symbols != nullptr);
    CHECK(max_symbols->kind == Entity::Kind::Constant);
    REQUIRE(find_entity(model, "btforge::run_default_strategy") != nullptr);
    REQUIRE(find_entity(model, "btforge::bbands_compute") != nullptr);

    // Each entity once, and callees before their callers.
    std::set<std::string> seen;
    for (const Entity& e : model.entities) {
        INFO(e.qualified_name);
        CHECK(seen.insert(e.qualified_name).second);
        for (const std::string& callee : e.callees) CHECK(seen.count(callee) == 1);
    }
    CHECK(std::find(model.input_files.begin(), model.input_files.end(), "reference/kernel_marker.h") !=
          model.input_files.end());
    CHECK(std::is_sorted(model.input_files.begin(), model.input_files.end()));
}

TEST_CASE("a file that does not compile throws with clang's message") {
    std::string message;
    try {
        parse({"generator/tests/fixtures/broken/broken.h"});
    } catch (const std::runtime_error& e) {
        message = e.what();
    }
    INFO(message);
    CHECK(message.find("generator/tests/fixtures/broken/broken.h:7:49: use of undeclared identifier 'undefined_name'") !=
          std::string::npos);
}

TEST_CASE("a missing entry header throws") {
    CHECK_THROWS_AS(parse({"generator/tests/fixtures/no_such_header.h"}), std::runtime_error);
}

}  // namespace
}  // namespace btforge::gen
