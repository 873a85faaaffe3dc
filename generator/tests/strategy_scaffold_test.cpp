// btforge-gen --new-strategy (Note [The strategy scaffold]): names it takes
// and refuses, the files it writes, and nothing written when it refuses. That
// the skeleton builds, passes its scenario test and parity is proved on a
// copy of the tree by the new-strategy end-to-end test.
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include "generator/strategy_scaffold.h"
#include "generator/tests/test_support.h"

using namespace btforge::gen;

namespace {

// A scratch root holding only the scaffold templates.
struct ScratchRoot {
    std::filesystem::path root;
    ScratchRoot() {
        root = std::filesystem::temp_directory_path() / ("btforge-scaffold-test-" + std::to_string(::getpid()));
        std::filesystem::remove_all(root);
        std::filesystem::create_directories(root / "templates");
        std::filesystem::copy(test::source_dir() / "templates" / "new_strategy", root / "templates" / "new_strategy");
    }
    ~ScratchRoot() { std::filesystem::remove_all(root); }
    std::set<std::string> files_under(const std::string& folder) const {
        std::set<std::string> out;
        if (!std::filesystem::exists(root / folder)) return out;
        for (const auto& e : std::filesystem::recursive_directory_iterator(root / folder)) {
            out.insert(e.path().lexically_relative(root).generic_string());
        }
        return out;
    }
};

}  // namespace

TEST_CASE("new strategy: the names a strategy can have") {
    struct Case {
        const char* name;
        bool accepted;
    };
    const Case cases[] = {
        {"breakout", true},         {"breakout_atr", true},  {"rsi2", true},         {"a", true},
        {"", false},                {"Breakout", false},     {"2fast", false},       {"_hidden", false},
        {"break-out", false},       {"break out", false},    {"double__score", false}, {"trailing_", false},
        {"../escape", false},       {"a/b", false},          {"caf\xc3\xa9", false},
        {"a234567890123456789012345678901234567890123456789", false},  // 49 characters
        {"a23456789012345678901234567890123456789012345678", true},    // 48
    };
    for (const Case& c : cases) {
        CAPTURE(c.name);
        ScratchRoot scratch;
        if (c.accepted) {
            CHECK_NOTHROW(render_strategy_scaffold(scratch.root / "templates", c.name));
        } else {
            const std::string expected = std::string("strategy name '") + c.name + "'";
            CHECK_THROWS_WITH_AS(render_strategy_scaffold(scratch.root / "templates", c.name),
                                 doctest::Contains(expected.c_str()), std::runtime_error);
        }
    }
}

TEST_CASE("new strategy: five files named after the strategy, its structs in CamelCase") {
    ScratchRoot scratch;
    std::vector<std::string> written = write_strategy_scaffold(scratch.root, "breakout_atr");
    CHECK(std::set<std::string>(written.begin(), written.end()) ==
          std::set<std::string>{"reference/strategies/breakout_atr/breakout_atr_strategy.h",
                                "reference/strategies/breakout_atr/tests/breakout_atr_scenarios_test.cpp",
                                "spec/breakout_atr.json", "spec/grids/breakout_atr_quickstart.json",
                                "spec/grids/breakout_atr_bench_large.json"});
    std::ifstream kernel(scratch.root / "reference/strategies/breakout_atr/breakout_atr_strategy.h");
    std::string text((std::istreambuf_iterator<char>(kernel)), std::istreambuf_iterator<char>());
    CHECK(text.find("struct BT_KERNEL BreakoutAtrParams {") != std::string::npos);
    CHECK(text.find("struct BT_KERNEL BreakoutAtrSeries {") != std::string::npos);
    CHECK(text.find("BT_KERNEL inline void run_breakout_atr_strategy(") != std::string::npos);
    CHECK(text.find("{{") == std::string::npos);  // every slot filled
    std::ifstream spec(scratch.root / "spec/breakout_atr.json");
    std::string spec_text((std::istreambuf_iterator<char>(spec)), std::istreambuf_iterator<char>());
    CHECK(spec_text.find("\"strategy\": \"breakout_atr\"") != std::string::npos);
}

TEST_CASE("new strategy: a name that is taken writes nothing") {
    ScratchRoot scratch;
    SUBCASE("its folder exists") {
        std::filesystem::create_directories(scratch.root / "reference/strategies/taken");
        CHECK_THROWS_WITH_AS(write_strategy_scaffold(scratch.root, "taken"),
                             doctest::Contains("reference/strategies/taken/ exists already"), std::runtime_error);
        CHECK(scratch.files_under("spec").empty());
    }
    SUBCASE("its spec exists") {
        std::filesystem::create_directories(scratch.root / "spec");
        std::ofstream(scratch.root / "spec/taken.json") << "{}";
        CHECK_THROWS_WITH_AS(write_strategy_scaffold(scratch.root, "taken"),
                             doctest::Contains("spec/taken.json exists already"), std::runtime_error);
        CHECK(scratch.files_under("reference").empty());
        CHECK(scratch.files_under("spec") == std::set<std::string>{"spec/taken.json"});
    }
    SUBCASE("the second time") {
        write_strategy_scaffold(scratch.root, "taken");
        CHECK_THROWS_AS(write_strategy_scaffold(scratch.root, "taken"), std::runtime_error);
    }
}

TEST_CASE("new strategy: a folder that cannot be written leaves nothing behind") {
    if (::geteuid() == 0) {
        MESSAGE("skipped as root: permissions do not stop root");
        return;
    }
    ScratchRoot scratch;
    std::filesystem::create_directories(scratch.root / "spec");
    std::filesystem::permissions(scratch.root / "spec", std::filesystem::perms::owner_read |
                                                            std::filesystem::perms::owner_exec);
    CHECK_THROWS_AS(write_strategy_scaffold(scratch.root, "locked"), std::runtime_error);
    std::filesystem::permissions(scratch.root / "spec", std::filesystem::perms::owner_all);
    CHECK(scratch.files_under("reference").empty());
    CHECK(scratch.files_under("spec").empty());
}
