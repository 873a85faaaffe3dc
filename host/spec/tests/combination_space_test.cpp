#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/spec/combination_space.h"
#include "host/spec/grid.h"
#include "host/spec/spec_error.h"
#include "host/spec/tests/spec_fixtures.h"

namespace btforge {
namespace {

using nlohmann::json;

// 3 * 2 * 4 * 3 * 1 * 2 * 2 = 288 combinations; series digits ema_fast(3),
// ema_slow(4), bb_period(1), bb_k(2), then sl_atr(2), mode(3), allow_short(2).
json grid_json() {
    return json::parse(R"({
      "strategy": "default",
      "parameters": {
        "ema_fast": {"values": [8, 12, 20]},
        "sl_atr": {"values": [1.5, 2.5]},
        "ema_slow": {"range": {"start": 30, "stop": 90, "step": 20}},
        "mode": {"values": [0, 1, 2]},
        "bb_k": {"values": [1, 2]},
        "allow_short": {"values": [false, true]}
      }
    })");
}

CombinationSpace space_of(const StrategySpec& spec, const json& grid) {
    return CombinationSpace(spec, parse_grid(grid.dump(), "grid.json", spec));
}

std::vector<double> decoded(const CombinationSpace& space, std::uint64_t id) {
    std::vector<double> values(space.parameter_count());
    space.decode(id, values);
    return values;
}

TEST_CASE("series parameters are the most significant digits") {
    const StrategySpec spec = test::default_spec();
    const CombinationSpace space = space_of(spec, grid_json());
    CHECK(space.full_size() == 288);
    CHECK(space.count() == 288);
    CHECK_FALSE(space.is_random());
    CHECK(space.series_block_size() == 12);

    const auto& digits = space.digits();
    REQUIRE(digits.size() == 7);
    const std::vector<std::size_t> order = {0, 2, 4, 5, 1, 3, 6};
    const std::vector<std::uint64_t> radices = {3, 4, 1, 2, 2, 3, 2};
    const std::vector<std::uint64_t> strides = {96, 24, 24, 12, 6, 2, 1};
    for (std::size_t k = 0; k < digits.size(); ++k) {
        CAPTURE(k);
        CHECK(digits[k].parameter == order[k]);
        CHECK(digits[k].radix == radices[k]);
        CHECK(digits[k].stride == strides[k]);
    }

    //                          ema_fast sl_atr ema_slow mode bb_period bb_k allow_short
    CHECK(decoded(space, 0) == std::vector<double>{8, 1.5, 30, 0, 20, 1, 0});
    CHECK(decoded(space, 1) == std::vector<double>{8, 1.5, 30, 0, 20, 1, 1});    // last non-series
    CHECK(decoded(space, 2) == std::vector<double>{8, 1.5, 30, 1, 20, 1, 0});    // mode
    CHECK(decoded(space, 6) == std::vector<double>{8, 2.5, 30, 0, 20, 1, 0});    // sl_atr
    CHECK(decoded(space, 12) == std::vector<double>{8, 1.5, 30, 0, 20, 2, 0});   // bb_k: the first series change
    CHECK(decoded(space, 24) == std::vector<double>{8, 1.5, 50, 0, 20, 1, 0});   // ema_slow
    CHECK(decoded(space, 96) == std::vector<double>{12, 1.5, 30, 0, 20, 1, 0});  // ema_fast, the most significant
    CHECK(decoded(space, 287) == std::vector<double>{20, 2.5, 90, 2, 20, 2, 1});

    // Every block of series_block_size() neighbours shares its indicator series.
    for (std::uint64_t id = 0; id < space.full_size(); ++id) {
        const auto first = decoded(space, id - id % space.series_block_size());
        const auto values = decoded(space, id);
        for (std::size_t p = 0; p < spec.parameters.size(); ++p)
            if (spec.parameters[p].series) CHECK(values[p] == first[p]);
    }
}

TEST_CASE("decode and encode round-trip over the whole space") {
    const StrategySpec spec = test::default_spec();
    const CombinationSpace space = space_of(spec, grid_json());
    std::set<std::vector<double>> seen;
    for (std::uint64_t id = 0; id < space.full_size(); ++id) {
        const auto values = decoded(space, id);
        CHECK(space.encode(values) == id);
        CHECK(space.combination_id(id) == id);
        seen.insert(values);
    }
    CHECK(seen.size() == space.full_size());
}

TEST_CASE("encode and decode reject what is not on the grid") {
    const StrategySpec spec = test::default_spec();
    const CombinationSpace space = space_of(spec, grid_json());
    auto values = decoded(space, 5);
    values[0] = 9;
    try {
        space.encode(values);
        FAIL("accepted");
    } catch (const SpecError& e) {
        CHECK(std::string(e.what()) == "grid.json: /parameters/ema_fast: expected one of the grid's values of ema_fast (8, 12, 20), got 9");
    }
    std::vector<double> too_few(3);
    CHECK_THROWS_AS(space.encode(too_few), std::invalid_argument);
    CHECK_THROWS_AS(space.decode(0, too_few), std::invalid_argument);
    CHECK_THROWS_AS(space.decode(288, values), std::out_of_range);
    CHECK_THROWS_AS(space.combination_id(288), std::out_of_range);
}

TEST_CASE("a default grid is one combination") {
    const StrategySpec spec = test::default_spec();
    const CombinationSpace space(spec, default_grid(spec));
    CHECK(space.full_size() == 1);
    CHECK(space.series_block_size() == 1);
    CHECK(decoded(space, 0) == std::vector<double>{12, 2, 50, 0, 20, 2, 1});
}

std::vector<std::uint64_t> sample(const CombinationSpace& space) {
    std::vector<std::uint64_t> ids;
    for (std::uint64_t ordinal = 0; ordinal < space.count(); ++ordinal) ids.push_back(space.combination_id(ordinal));
    return ids;
}

TEST_CASE("random mode draws distinct ids, reproducibly per seed") {
    const StrategySpec spec = test::default_spec();
    json grid = grid_json();
    grid["random"] = {{"count", 100}, {"seed", 7}};
    const CombinationSpace space = space_of(spec, grid);
    CHECK(space.is_random());
    CHECK(space.full_size() == 288);
    CHECK(space.count() == 100);

    const auto ids = sample(space);
    CHECK(std::set<std::uint64_t>(ids.begin(), ids.end()).size() == 100);
    CHECK(std::all_of(ids.begin(), ids.end(), [](std::uint64_t id) { return id < 288; }));
    CHECK(sample(space_of(spec, grid)) == ids);
    // Not the identity: a sample of the first ids would be no sample at all.
    std::vector<std::uint64_t> prefix(100);
    std::iota(prefix.begin(), prefix.end(), 0);
    CHECK(ids != prefix);

    grid["random"]["seed"] = 8;
    CHECK(sample(space_of(spec, grid)) != ids);

    grid["random"]["count"] = 288;
    auto all = sample(space_of(spec, grid));
    std::sort(all.begin(), all.end());
    std::vector<std::uint64_t> everything(288);
    std::iota(everything.begin(), everything.end(), 0);
    CHECK(all == everything);
}

TEST_CASE("ordinal_of inverts combination_id, and has nothing for an id the sweep does not run") {
    const StrategySpec spec = test::default_spec();
    json grid = grid_json();
    const CombinationSpace full = space_of(spec, grid);
    for (std::uint64_t ordinal = 0; ordinal < full.count(); ++ordinal) CHECK(full.ordinal_of(ordinal) == ordinal);
    CHECK(!full.ordinal_of(288));
    CHECK(!full.ordinal_of(~std::uint64_t{0}));

    grid["random"] = {{"count", 100}, {"seed", 7}};
    const CombinationSpace random = space_of(spec, grid);
    std::set<std::uint64_t> drawn;
    for (std::uint64_t ordinal = 0; ordinal < random.count(); ++ordinal) {
        const std::uint64_t id = random.combination_id(ordinal);
        drawn.insert(id);
        CHECK(random.ordinal_of(id) == ordinal);
    }
    // The 188 ids the permutation puts at ordinals 100..287 are not run.
    for (std::uint64_t id = 0; id < 288; ++id) CHECK(random.ordinal_of(id).has_value() == (drawn.count(id) == 1));
    CHECK(!random.ordinal_of(288));
}

// `n` bool parameters, not series, all swept over {0, 1}: a space of 2^n.
struct BoolSpace {
    StrategySpec spec;
    Grid grid;
};

BoolSpace bool_space(int n) {
    json spec_json = {{"strategy", "bits"}, {"parameters", json::array()}};
    for (int i = 0; i < n; ++i) {
        const std::string name = std::string("b").append(std::to_string(i));
        spec_json["parameters"].push_back({{"name", name}, {"type", "bool"}, {"default", false}, {"series", false}});
    }
    BoolSpace s{parse_strategy_spec(spec_json.dump(), "bits.json", test::catalog()), {}};
    s.grid = default_grid(s.spec);
    for (auto& axis : s.grid.axes) axis.values = {0.0, 1.0};
    return s;
}

TEST_CASE("a space of 2^63 combinations is the largest allowed") {
    const BoolSpace at_limit = bool_space(63);
    CHECK(combination_space_size(at_limit.grid) == std::uint64_t{1} << 63);
    const CombinationSpace space(at_limit.spec, at_limit.grid);
    CHECK(space.full_size() == std::uint64_t{1} << 63);
    const auto last = decoded(space, space.full_size() - 1);
    CHECK(std::all_of(last.begin(), last.end(), [](double v) { return v == 1.0; }));
    CHECK(space.encode(last) == space.full_size() - 1);

    // 2^64 wraps a uint64 around to 0: the overflow must be seen, not the 0.
    const BoolSpace beyond = bool_space(64);
    CHECK_FALSE(combination_space_size(beyond.grid).has_value());
    CHECK_THROWS_AS(CombinationSpace(beyond.spec, beyond.grid), SpecError);

    // 3 * 2^62 fits a uint64 but exceeds 2^63.
    BoolSpace three = bool_space(63);
    three.grid.axes.back().values = {0.0, 1.0, 0.5};
    CHECK_FALSE(combination_space_size(three.grid).has_value());
}

TEST_CASE("random mode works on the largest space") {
    BoolSpace s = bool_space(63);
    s.grid.random = RandomSampling{1000, 123};
    const CombinationSpace space(s.spec, s.grid);
    const auto ids = sample(space);
    CHECK(std::set<std::uint64_t>(ids.begin(), ids.end()).size() == 1000);
    CHECK(std::all_of(ids.begin(), ids.end(), [&](std::uint64_t id) { return id < space.full_size(); }));
    // Both halves of the space are drawn from.
    CHECK(std::any_of(ids.begin(), ids.end(), [](std::uint64_t id) { return id >> 62 != 0; }));
    CHECK(std::any_of(ids.begin(), ids.end(), [](std::uint64_t id) { return id >> 62 == 0; }));
}

TEST_CASE("a grid built by hand is checked against the spec") {
    const StrategySpec spec = test::default_spec();
    Grid grid = default_grid(spec);
    grid.random = RandomSampling{2, 1};
    CHECK_THROWS_AS(CombinationSpace(spec, grid), SpecError);  // count > the one combination
    grid = default_grid(spec);
    grid.axes.pop_back();
    CHECK_THROWS_AS(CombinationSpace(spec, grid), SpecError);
    grid = default_grid(spec);
    grid.strategy = "other";
    CHECK_THROWS_AS(CombinationSpace(spec, grid), SpecError);
}

// Note [Conditional axes], Note [Run order of a conditional grid]: the
// combinations run are exactly those of the product whose axes without a
// holding condition are at their first value, each once, and ordinal_of
// inverts combination_id on them and refuses every other id.
void check_conditional_space(const CombinationSpace& space, const Grid& grid) {
    std::set<std::uint64_t> expected;
    for (std::uint64_t id = 0; id < space.full_size(); ++id) {
        const std::vector<double> values = decoded(space, id);
        bool kept = true;
        for (const GridAxis& axis : grid.axes) {
            if (!axis.when) continue;
            const double controller = values[axis.when->parameter];
            const bool holds = std::find(axis.when->values.begin(), axis.when->values.end(), controller) !=
                               axis.when->values.end();
            CHECK(space.applies(id, axis.parameter) == holds);
            if (!holds && values[axis.parameter] != axis.values.front()) kept = false;
        }
        if (kept) expected.insert(id);
        if (!kept) CHECK_FALSE(space.ordinal_of(id).has_value());
    }
    CHECK(space.conditional_size() == expected.size());
    CHECK(conditional_space_size(grid) == expected.size());
    std::set<std::uint64_t> seen;
    for (std::uint64_t ordinal = 0; ordinal < space.count(); ++ordinal) {
        const std::uint64_t id = space.combination_id(ordinal);
        CHECK(expected.count(id) == 1);
        CHECK(seen.insert(id).second);
        REQUIRE(space.ordinal_of(id).has_value());
        CHECK(*space.ordinal_of(id) == ordinal);
    }
    if (!space.is_random()) CHECK(seen == expected);
}

TEST_CASE("a conditional grid runs the product's combinations whose inactive axes are at their first value") {
    const StrategySpec spec = test::default_spec();
    json grid = grid_json();
    grid["parameters"]["ema_fast"]["when"] = {{"mode", {0}}};
    grid["parameters"]["bb_k"]["when"] = {{"mode", {1, 2}}};
    grid["parameters"]["ema_slow"]["when"] = {{"mode", {0, 2}}};
    grid["parameters"]["allow_short"]["when"] = {{"sl_atr", 2.5}};
    const Grid parsed = parse_grid(grid.dump(), "grid.json", spec);
    const CombinationSpace space(spec, parsed);
    CHECK(space.is_conditional());
    CHECK(space.full_size() == 288);
    // mode 0: ema_fast 3 x ema_slow 4; mode 1: bb_k 2; mode 2: ema_slow 4 x
    // bb_k 2; each times sl_atr 1.5 (allow_short pinned) + sl_atr 2.5 (x2).
    CHECK(space.count() == (12 + 2 + 8) * 3);
    check_conditional_space(space, parsed);

    // A controlling parameter that is a series digit, and a random sample.
    json series = grid_json();
    series["parameters"]["ema_slow"]["when"] = {{"ema_fast", {12, 20}}};
    const Grid by_series = parse_grid(series.dump(), "grid.json", spec);
    const CombinationSpace series_space(spec, by_series);
    CHECK(series_space.count() == (1 + 4 + 4) * 24);
    check_conditional_space(series_space, by_series);
    grid["random"] = {{"count", 30}, {"seed", 5}};
    const Grid sampled = parse_grid(grid.dump(), "grid.json", spec);
    const CombinationSpace sampled_space(spec, sampled);
    CHECK(sampled_space.is_random());
    CHECK(sampled_space.count() == 30);
    check_conditional_space(sampled_space, sampled);
    grid["random"]["count"] = 67;
    CHECK_THROWS_WITH_AS(parse_grid(grid.dump(), "grid.json", spec),
                         doctest::Contains("at most 66 (the size of the grid's combination space, its conditions applied)"),
                         SpecError);
}

TEST_CASE("without conditions the run order is the ids, as before") {
    const StrategySpec spec = test::default_spec();
    const CombinationSpace space = space_of(spec, grid_json());
    CHECK_FALSE(space.is_conditional());
    CHECK(space.conditional_size() == space.full_size());
    for (std::uint64_t ordinal = 0; ordinal < space.count(); ++ordinal) CHECK(space.combination_id(ordinal) == ordinal);
}

}  // namespace
}  // namespace btforge
