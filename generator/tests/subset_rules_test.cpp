#include <doctest/doctest.h>

#include <string>

#include "generator/tests/test_support.h"

namespace btforge::gen {
namespace {

using test::describe;
using test::parse;
using test::where;

const std::string kFixtures = "generator/tests/fixtures/violations/";

// Each fixture holds exactly one violation among correct marked code; the
// expected positions are read off the fixture by hand.
void expect_single(const std::string& rule, const std::string& position) {
    ReferenceModel model = parse({kFixtures + rule + ".h"});
    INFO(describe(model.violations));
    REQUIRE(model.violations.size() == 1);
    CHECK(model.violations[0].rule == rule);
    CHECK(where(model.violations[0]) == kFixtures + rule + ".h:" + position);
    CHECK(model.violations[0].explanation.find('\n') == std::string::npos);
    CHECK(!model.violations[0].explanation.empty());
}

TEST_CASE("heap-allocation: a new expression") { expect_single("heap-allocation", "11:22"); }

TEST_CASE("container: a std::vector local") { expect_single("container", "13:5"); }

TEST_CASE("std-string: a std::string parameter") { expect_single("std-string", "11:47"); }

TEST_CASE("exception: a throw expression") { expect_single("exception", "13:25"); }

TEST_CASE("rtti-virtual: a virtual member function of a marked struct") { expect_single("rtti-virtual", "11:20"); }

TEST_CASE("recursion: a two-function cycle, reported at the closing call") {
    expect_single("recursion", "13:56");
    ReferenceModel model = parse({kFixtures + "recursion.h"});
    CHECK(model.violations[0].explanation.find("fixture::pong -> fixture::ping -> fixture::pong") !=
          std::string::npos);
}

TEST_CASE("static-mutable-state: a non-const static local") { expect_single("static-mutable-state", "11:16"); }

TEST_CASE("io: a printf call") { expect_single("io", "12:24"); }

TEST_CASE("unmarked-call: a call to a host function; the math allow-list passes") {
    expect_single("unmarked-call", "14:5");
    ReferenceModel model = parse({kFixtures + "unmarked-call.h"});
    CHECK(model.violations[0].explanation ==
          "call to unmarked function 'log_to_file': only BT_KERNEL functions and the allowed math run on the device");
}

TEST_CASE("transcendental: std::log names portable_log; std::atan says there is no portable version") {
    ReferenceModel model = parse({kFixtures + "transcendental.h"});
    INFO(describe(model.violations));
    REQUIRE(model.violations.size() == 2);
    CHECK(where(model.violations[0]) == kFixtures + "transcendental.h:11:12");
    CHECK(model.violations[0].rule == "transcendental");
    CHECK(model.violations[0].explanation ==
          "call to 'std::log': the C library's transcendentals round differently on the CPU and the GPU; call "
          "btforge::portable_log (reference/math/portable_log.h), bit-identical on both");
    CHECK(where(model.violations[1]) == kFixtures + "transcendental.h:14:50");
    CHECK(model.violations[1].rule == "transcendental");
    CHECK(model.violations[1].explanation.find("no portable version yet (there are portable_exp, portable_expm1, "
                                               "portable_log, portable_pow, portable_tanh)") != std::string::npos);
}

TEST_CASE("non-pod: a marked struct with a user-written destructor") { expect_single("non-pod", "14:5"); }

TEST_CASE("variable-length-array: a runtime-sized local array") { expect_single("variable-length-array", "8:12"); }

TEST_CASE("lambda: said once, at the lambda, not again at its call") {
    expect_single("lambda", "11:18");
    ReferenceModel model = parse({kFixtures + "lambda.h"});
    CHECK(model.violations[0].explanation.find("write a BT_KERNEL inline function") != std::string::npos);
}

TEST_CASE("std-array: said at the declaration, with the plain array to write instead; its operator[] is not") {
    expect_single("std-array", "12:5");
    ReferenceModel model = parse({kFixtures + "std-array.h"});
    CHECK(model.violations[0].explanation.find("declare a plain array") != std::string::npos);
}

TEST_CASE("cold-field: BT_COLD on a local variable; on a struct field it passes") {
    expect_single("cold-field", "13:20");
    ReferenceModel model = parse({kFixtures + "cold-field.h"});
    CHECK(model.violations[0].explanation ==
          "BT_COLD on variable 'doubled': only fields of marked structs can be cold");
}

TEST_CASE("cold-field: BT_COLD on a struct, on a function, or after a field's name") {
    ReferenceModel model = parse({kFixtures + "cold-misuse.h"});
    INFO(describe(model.violations));
    REQUIRE(model.violations.size() == 3);
    for (const Violation& v : model.violations) CHECK(v.rule == "cold-field");
    CHECK(model.violations[0].explanation == "BT_COLD on struct 'Whole': only fields of marked structs can be cold");
    CHECK(model.violations[1].explanation ==
          "BT_COLD after the name of field 'b': write it before the field's type");
    CHECK(model.violations[2].explanation == "BT_COLD on function 'twice': only fields of marked structs can be cold");
}

TEST_CASE("several violations in different functions are all reported, sorted") {
    ReferenceModel model = parse({kFixtures + "several.h"});
    INFO(describe(model.violations));
    REQUIRE(model.violations.size() == 4);
    const std::string file = kFixtures + "several.h:";
    CHECK(where(model.violations[0]) == file + "11:54");
    CHECK(model.violations[0].rule == "recursion");
    CHECK(model.violations[0].explanation.find("fixture::fib -> fixture::fib") != std::string::npos);
    CHECK(where(model.violations[1]) == file + "13:51");
    CHECK(model.violations[1].rule == "unmarked-call");
    CHECK(where(model.violations[2]) == file + "16:24");
    CHECK(model.violations[2].rule == "exception");
    CHECK(where(model.violations[3]) == file + "20:44");
    CHECK(model.violations[3].rule == "heap-allocation");
}

TEST_CASE("all fixtures parsed as one translation unit report every violation of every file") {
    ReferenceModel model = parse({kFixtures + "heap-allocation.h", kFixtures + "io.h", kFixtures + "container.h"});
    INFO(describe(model.violations));
    REQUIRE(model.violations.size() == 3);
    CHECK(model.violations[0].rule == "container");
    CHECK(model.violations[1].rule == "heap-allocation");
    CHECK(model.violations[2].rule == "io");
}

}  // namespace
}  // namespace btforge::gen
