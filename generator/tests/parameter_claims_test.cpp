// Note [Parameters a mode reads]: the proof of read_when claims, on a fixture
// with one parameter per shape of test and on the real reference.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "generator/generator_config.h"
#include "generator/parameter_claims.h"
#include "generator/strategy_contract.h"
#include "generator/tests/test_support.h"
#include "host/engine/indicator_signatures.h"
#include "host/spec/spec_error.h"
#include "host/spec/strategy_spec.h"

namespace btforge::gen {
namespace {

using test::describe;
using test::parse;

const std::string kClaims = "generator/tests/fixtures/claims/claims.h";
const std::string kClaimsCopy = "generator/tests/fixtures/claims/claims_copy.h";
const std::string kClaimsCast = "generator/tests/fixtures/claims/claims_cast.h";

// The fixture's parameters, each with the claim the test makes of it.
nlohmann::json fixture_spec(const std::map<std::string, std::vector<int>>& claims) {
    auto parameter = [](const char* name, const char* type, bool series, double max) {
        nlohmann::json p = {{"name", name}, {"type", type}, {"series", series}};
        if (std::string(type) != "bool") {
            p["default"] = 2;
            p["min"] = std::string(name) == "mode" ? 0 : 1;
            p["max"] = max;
        } else {
            p["default"] = false;
        }
        return p;
    };
    nlohmann::json spec = {{"strategy", "claims"},
                           {"parameters",
                            {parameter("fast", "int", true, 100), parameter("band_period", "int", true, 100),
                             parameter("slow", "int", false, 1000), parameter("level", "double", false, 100),
                             parameter("width", "double", false, 100), parameter("stop", "double", false, 100),
                             parameter("tail", "double", false, 100), parameter("mode", "int", false, 2),
                             parameter("use_level", "bool", false, 1)}},
                           {"indicators",
                            {{{"id", "fast_ma"}, {"indicator", "EMA"}, {"params", {{"period", "fast"}}}},
                             {{"id", "band"}, {"indicator", "SMA"}, {"params", {{"period", "band_period"}}}}}}};
    for (auto& p : spec["parameters"]) {
        auto it = claims.find(p["name"].get<std::string>());
        if (it != claims.end()) p["read_when"] = {{"mode", it->second}};
    }
    return spec;
}

GeneratorConfig fixture_config(const std::map<std::string, std::vector<int>>& claims) {
    StrategyTarget target;
    target.spec = parse_strategy_spec(fixture_spec(claims).dump(), "claims.json", indicator_signatures());
    target.spec_file = "claims.json";
    target.entry = "fixture::claims::run_claims_strategy";
    target.params_struct = "fixture::claims::ClaimsParams";
    target.series_struct = "fixture::claims::ClaimsSeries";
    GeneratorConfig config;
    config.strategies.push_back(std::move(target));
    return config;
}

// Where `text` first appears in the fixture (1-based line and column), the
// location a violation at that read carries.
std::pair<unsigned, unsigned> position_of(const std::string& relative, const std::string& text) {
    std::ifstream in(test::source_dir() / relative);
    std::string line;
    for (unsigned n = 1; std::getline(in, line); ++n) {
        std::size_t at = line.find(text);
        if (at != std::string::npos) return {n, static_cast<unsigned>(at + 1)};
    }
    FAIL("no \"" << text << "\" in " << relative);
    return {0, 0};
}

// The claims that hold on the fixture, one per shape of test.
const std::map<std::string, std::vector<int>> kHolding = {
    {"fast", {0}},           // a call guarded by `if (p.mode == kTrend)`, a constexpr; the series too
    {"band_period", {1, 2}},  // the false branch of `p.mode == kTrend ? ... : ...`; the series too
    {"slow", {0}},           // after `if (p.mode != kTrend) { return ...; }` and after `if (p.mode != 0) break;`
    {"level", {2}},          // after `if (!(p.mode == 2) || !p.use_level) return ...;`
    {"width", {1}},          // the right of `p.mode == 1 && ...`
};

TEST_CASE("claims: every shape of test the proof reads bears out its claim") {
    ReferenceModel model = parse({kClaims});
    REQUIRE(model.violations.empty());
    std::vector<Violation> found = check_parameter_claims(model, fixture_config(kHolding));
    INFO(describe(found));
    CHECK(found.empty());
}

TEST_CASE("claims: a read outside the claim is reported at the read, with the values it may see") {
    ReferenceModel model = parse({kClaims});
    std::map<std::string, std::vector<int>> claims = kHolding;
    claims["stop"] = {0};  // read unguarded
    claims["tail"] = {0};  // read after a case label: the early return before it does not hold there
    std::vector<Violation> found = check_parameter_claims(model, fixture_config(claims));
    INFO(describe(found));
    REQUIRE(found.size() == 2);
    auto tail = position_of(kClaims, "p.tail;");
    auto stop = position_of(kClaims, "p.stop;");
    CHECK(found[0].location.file == kClaims);
    CHECK(found[0].location.line == tail.first);
    CHECK(found[0].location.column == tail.second + 2);  // at the member's name
    CHECK(found[0].rule == "read-claim");
    CHECK(found[0].explanation.find("tail is read here where mode may be 1, 2, but claims.json: /parameters/6/read_when/mode "
                                    "claims it is read only where mode is 0") == 0);
    CHECK(found[1].location.line == stop.first);
    CHECK(found[1].explanation.find("stop is read here where mode may be 1, 2") == 0);
}

TEST_CASE("claims: a wrong claim fails at every read, of the field and of its series") {
    ReferenceModel model = parse({kClaims});
    std::map<std::string, std::vector<int>> claims = kHolding;
    claims["fast"] = {1};
    claims["band_period"] = {0, 2};
    claims["level"] = {0, 1};
    std::vector<Violation> found = check_parameter_claims(model, fixture_config(claims));
    INFO(describe(found));
    REQUIRE(found.size() == 5);
    CHECK(found[0].explanation.find("the series fast_ma, made from fast, is read here where mode may be 0") == 0);
    CHECK(found[1].explanation.find("fast is read here where mode may be 0") == 0);
    CHECK(found[2].explanation.find("level is read here where mode may be 2") == 0);
    CHECK(found[3].explanation.find("the series band, made from band_period, is read here where mode may be 1") == 0);
    CHECK(found[4].explanation.find("band_period is read here where mode may be 1") == 0);
}

TEST_CASE("claims: a copy of the parameters refuses every claim, even where nothing reads it") {
    ReferenceModel model = parse({kClaims, kClaimsCopy});
    std::vector<Violation> found = check_parameter_claims(model, fixture_config(kHolding));
    INFO(describe(found));
    REQUIRE(found.size() == 1);
    CHECK(found[0].location.file == kClaimsCopy);
    CHECK(found[0].location.line == position_of(kClaimsCopy, "ClaimsParams copy").first);
    CHECK(found[0].explanation.find("a copy of fixture::claims::ClaimsParams, or a way to change it, is made here") == 0);
    CHECK(check_parameter_claims(model, fixture_config({})).empty());  // no claim, nothing to refuse
}

TEST_CASE("claims: a cast that takes the const off the parameters refuses every claim") {
    ReferenceModel model = parse({kClaims, kClaimsCast});
    std::vector<Violation> found = check_parameter_claims(model, fixture_config(kHolding));
    INFO(describe(found));
    REQUIRE(found.size() == 1);
    CHECK(found[0].location.file == kClaimsCast);
    CHECK(found[0].location.line == position_of(kClaimsCast, "const_cast").first);
}

TEST_CASE("claims: the spec refuses a claim it cannot prove by its shape") {
    auto refused = [](const std::string& name, const nlohmann::json& read_when) {
        nlohmann::json spec = fixture_spec({});
        for (auto& p : spec["parameters"]) {
            if (p["name"] == name) p["read_when"] = read_when;
        }
        try {
            parse_strategy_spec(spec.dump(), "claims.json", indicator_signatures());
        } catch (const SpecError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    struct Case {
        const char* parameter;
        nlohmann::json read_when;
        const char* message;
    };
    const std::vector<Case> cases = {
        {"fast", {{"level", {1}}}, "/parameters/0/read_when/level: expected an int or bool parameter with \"series\": false"},
        {"fast", {{"band_period", {1}}}, "expected an int or bool parameter with \"series\": false"},
        {"fast", {{"fast", {0}}}, "expected another parameter than \"fast\" itself"},
        {"fast", {{"nothing", {0}}}, "unknown key \"nothing\""},
        {"fast", {{"mode", {3}}}, "/parameters/0/read_when/mode/0: expected a value of \"mode\" (an integer from 0 to 2)"},
        {"fast", {{"mode", {0.5}}}, "expected a value of \"mode\""},
        {"fast", {{"mode", {0, 0}}}, "/read_when/mode/1: expected a value not listed before"},
        {"fast", {{"mode", nlohmann::json::array()}}, "expected at least one value"},
        {"fast", {{"mode", {0, 1, 2}}}, "expected some of \"mode\"'s values left out"},
        {"fast", {{"use_level", {true, false}}}, "expected some of \"use_level\"'s values left out"},
        {"fast", {{"slow", {0}}}, "expected a parameter of at most 256 values"},
        {"fast", {{"mode", {0}}, {"use_level", {1}}}, "expected an object naming exactly one parameter"},
        {"fast", {{"mode", 0}}, "expected an array of the values where \"fast\" is read"},
        {"mode", {{"use_level", {1}}}, "accepted"},
        {"use_level", {{"mode", {1}}}, "accepted"},
    };
    for (const Case& c : cases) {
        std::string message = refused(c.parameter, c.read_when);
        INFO(c.parameter << " " << c.read_when.dump() << ": " << message);
        CHECK(message.find(c.message) != std::string::npos);
    }
    // A controller with a claim of its own controls nothing.
    nlohmann::json spec = fixture_spec({{"fast", {0}}});
    for (auto& p : spec["parameters"]) {
        if (p["name"] == "mode") p["read_when"] = {{"use_level", {1}}};
    }
    CHECK_THROWS_WITH_AS(parse_strategy_spec(spec.dump(), "claims.json", indicator_signatures()),
                         doctest::Contains("expected a controlling parameter without a claim of its own, got \"mode\""),
                         SpecError);
}

// The reference's own claims: each holds, and claiming the other mode for
// it fails, so the proof sees the reads each claim is about.
TEST_CASE("claims: the default strategy's claims hold, and each turned around fails") {
    GeneratorConfig config = load_generator_config(test::source_dir(), "spec/generator.json");
    ParseOptions options;
    options.repository_root = test::source_dir();
    options.entry_headers = config.reference_headers;
    ReferenceModel model = parse_reference(options);
    REQUIRE(check_strategy_contracts(model, config).empty());
    INFO(describe(check_parameter_claims(model, config)));
    REQUIRE(check_parameter_claims(model, config).empty());

    StrategyTarget* target = nullptr;
    for (StrategyTarget& t : config.strategies) {
        if (t.spec.name == "default") target = &t;
    }
    REQUIRE(target != nullptr);
    int claims = 0;
    for (ParameterSpec& p : target->spec.parameters) {
        if (!p.read_when) continue;
        ++claims;
        std::vector<double> kept = p.read_when->values;
        p.read_when->values = {kept == std::vector<double>{0.0} ? 1.0 : 0.0};
        std::vector<Violation> found = check_parameter_claims(model, config);
        p.read_when->values = kept;
        INFO(p.name);
        CHECK(!found.empty());
        for (const Violation& v : found) CHECK(v.explanation.find(p.name) != std::string::npos);
    }
    CHECK(claims == 12);
}

}  // namespace
}  // namespace btforge::gen
