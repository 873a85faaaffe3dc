// The results files and the ranked table: Note [Rows with non-finite
// metrics], Note [Rows spooled to disk], Note [The ranked table].
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <span>
#include <stdexcept>
#include <random>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "host/engine/indicator_signatures.h"
#include "host/report/ranked_rows.h"
#include "host/report/results_writer.h"
#include "host/spec/grid.h"
#include "spec/embedded_specs.h"

using namespace btforge;

namespace {

StrategySpec sma_spec() {
    return parse_strategy_spec(*embedded_spec_file("sma_cross.json"), "sma_cross.json", indicator_signatures());
}

// 3 x 1 x 3 x 1 x 2 = 18 combinations; slow_period has one value.
constexpr const char* kGrid = R"({"strategy": "sma_cross", "parameters": {
    "fast_period": {"values": [5, 10, 15]}, "slow_period": 40,
    "stop_pct": {"log_range": {"start": 0.01, "stop": 0.1, "num": 3}},
    "allow_short": {"values": [false, true]}}})";

ResultRow row(std::uint64_t id, double sharpe, int trades = 20) {
    ResultRow r{};
    r.combination_id = id;
    r.metrics.sharpe = sharpe;
    r.metrics.final_equity = 10000.0;
    r.metrics.n_trades = trades;
    return r;
}

const RankOrder kSharpe{find_metric_column("sharpe"), 10};

// Every combination its own outcome.
OutcomeIndex distinct_outcomes(const CombinationSpace& space) {
    std::vector<OutcomeKey> keys(space.count());
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = OutcomeKey{i, 7};
    return OutcomeIndex(space, 0, keys);
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

}  // namespace

TEST_CASE("every row says whether it is valid and has enough trades, in the CSV, the JSON and the summary") {
    const StrategySpec spec = sma_spec();
    const Grid grid = parse_grid(kGrid, "grid", spec);
    const CombinationSpace space(spec, grid);
    ResultRow broken = row(3, 1.0);
    broken.metrics.final_equity = std::numeric_limits<double>::quiet_NaN();
    const std::vector<ResultRow> rows = {row(1, 2.0), row(4, 3.0, 9), broken};
    const RowsInMemory ranked(rows);

    std::ostringstream csv;
    const OutcomeIndex outcomes = distinct_outcomes(space);
    write_results_csv(csv, spec, space, ranked, outcomes, 10);
    const std::vector<std::string> csv_lines = lines(csv.str());
    REQUIRE(csv_lines.size() == 4);
    CHECK(csv_lines[0].rfind("rank,combination_id,valid,enough_trades,fast_period,", 0) == 0);
    CHECK(csv_lines[1].rfind("1,1,true,true,", 0) == 0);
    CHECK(csv_lines[2].rfind("2,4,true,false,", 0) == 0);  // Note [Rows with few trades]
    CHECK(csv_lines[3].rfind("3,3,false,true,", 0) == 0);
    CHECK(csv_lines[3].find(",nan,") != std::string::npos);
    CHECK(csv_lines[0].find(",liquidation_loss,ambiguous_bars,magnified_bars,outcome_combinations,outcome_first_id") != std::string::npos);
    CHECK(csv_lines[2].substr(csv_lines[2].size() - 4) == ",1,4");  // its own outcome, of one combination

    RunSummary summary;
    summary.combinations = 18;
    summary.invalid_rows = 1;
    summary.min_trades = 10;
    std::ostringstream json;
    write_results_json(json, summary, spec, space, ranked, outcomes);
    const nlohmann::json doc = nlohmann::json::parse(json.str());  // streamed, still one JSON document
    CHECK(doc["invalid_rows"] == 1);
    CHECK(doc["min_trades"] == 10);
    REQUIRE(doc["rows"].size() == 3);
    CHECK(doc["rows"][0]["valid"] == true);
    CHECK(doc["rows"][0]["enough_trades"] == true);
    CHECK(doc["rows"][1]["enough_trades"] == false);
    CHECK(doc["rows"][2]["valid"] == false);
    CHECK(doc["rows"][2]["metrics"]["final_equity"] == "nan");
    CHECK(doc["rows"][2]["parameters"]["allow_short"] == true);
}

TEST_CASE("an empty ranking is still a JSON document") {
    const StrategySpec spec = sma_spec();
    const CombinationSpace space(spec, default_grid(spec));
    const std::vector<ResultRow> none;
    std::ostringstream json;
    write_results_json(json, RunSummary{}, spec, space, RowsInMemory(none), distinct_outcomes(space));
    CHECK(nlohmann::json::parse(json.str())["rows"].empty());
}

TEST_CASE("the ranked table shows every parameter the grid varies, at 6 significant digits") {
    const StrategySpec spec = sma_spec();
    const Grid grid = parse_grid(kGrid, "grid", spec);
    const CombinationSpace space(spec, grid);
    // The two shown rows share fast_period and allow_short: still columns.
    std::vector<double> values(spec.parameters.size());
    std::vector<ResultRow> rows;
    for (std::uint64_t id = 0; id < space.full_size(); ++id) {
        space.decode(id, values);
        if (values[*spec.parameter_index("fast_period")] == 5 && values[*spec.parameter_index("allow_short")] == 0)
            rows.push_back(row(id, 1.0 / 3.0));
    }
    REQUIRE(rows.size() == 3);
    const OutcomeIndex outcomes = distinct_outcomes(space);
    const std::string table = format_ranked_table(spec, space, rows, outcomes, kSharpe, 10);
    CHECK(lines(table).front() == "18 combinations, 18 distinct outcomes");
    const std::string header = lines(table)[1];
    for (const char* varied : {"fast_period", "stop_pct", "allow_short"}) CHECK(header.find(varied) != std::string::npos);
    CHECK(header.find("slow_period") == std::string::npos);  // one value: not a column
    CHECK(header.find("valid") == std::string::npos);         // every shown row is valid
    CHECK(table.find("0.0316228") != std::string::npos);      // the log_range's middle value, 6 digits
    CHECK(table.find("0.031622776") == std::string::npos);
    CHECK(table.find("0.333333") != std::string::npos);

    ResultRow broken = row(0, 5.0);
    broken.metrics.sortino = std::numeric_limits<double>::infinity();
    const std::string marked =
        format_ranked_table(spec, space, {rows[0], broken}, outcomes, kSharpe, 10);
    CHECK(lines(marked)[1].find("valid") != std::string::npos);
    CHECK(lines(marked).back().find("NO") != std::string::npos);
    CHECK(header.find("enough_trades") == std::string::npos);  // every shown row has enough

    // Note [Rows with few trades]: a column and a line that says what it means.
    const std::string few = format_ranked_table(spec, space, {rows[0], row(2, 0.1, 3)}, outcomes, kSharpe, 10);
    const std::vector<std::string> few_lines = lines(few);
    CHECK(few_lines[1].find("enough_trades") != std::string::npos);
    CHECK(few_lines[3].find("NO") != std::string::npos);
    CHECK(few_lines.back().find("fewer than 10 trades") != std::string::npos);
}

TEST_CASE("a row per outcome: how many combinations share it and which values they take") {
    // Note [Distinct outcomes]: allow_short makes no difference for
    // fast_period 5; stop_pct none for fast_period 10 either; each
    // combination of fast_period 15 is its own outcome.
    const StrategySpec spec = sma_spec();
    const Grid grid = parse_grid(kGrid, "grid", spec);
    const CombinationSpace space(spec, grid);
    const std::size_t fast = *spec.parameter_index("fast_period");
    const std::size_t stop = *spec.parameter_index("stop_pct");
    std::vector<double> values(spec.parameters.size());
    std::vector<OutcomeKey> keys(space.count());
    for (std::uint64_t ordinal = 0; ordinal < space.count(); ++ordinal) {
        space.decode(space.combination_id(ordinal), values);
        const auto stop_digit = static_cast<unsigned long long>(values[stop] * 1000);
        if (values[fast] == 5) {
            keys[ordinal] = OutcomeKey{5, stop_digit};
        } else if (values[fast] == 10) {
            keys[ordinal] = OutcomeKey{10, 0};
        } else {
            keys[ordinal] = OutcomeKey{15, ordinal};
        }
    }
    OutcomeIndex outcomes(space, 0, keys);
    CHECK(outcomes.distinct() == 3 + 1 + 6);
    CHECK(outcomes.combinations() == 18);
    // The best row of each of three outcomes: the smallest id of each.
    std::vector<ResultRow> rows;
    std::vector<std::uint64_t> first_of_five;
    for (std::uint64_t id = 0; id < space.full_size(); ++id) {
        space.decode(id, values);
        if (values[fast] == 10 && rows.empty()) rows.push_back(row(id, 2.0));
    }
    for (std::uint64_t id = 0; id < space.full_size(); ++id) {
        space.decode(id, values);
        if (values[fast] == 5 && values[stop] == 0.01) {
            rows.push_back(row(id, 1.0));
            break;
        }
    }
    for (std::uint64_t id = 0; id < space.full_size(); ++id) {
        space.decode(id, values);
        if (values[fast] == 15) {
            rows.push_back(row(id, 0.5));
            break;
        }
    }
    outcomes.describe(rows);
    CHECK(outcomes.of(rows[0].combination_id).combinations == 6);
    CHECK(outcomes.of(rows[0].combination_id).first_id == rows[0].combination_id);
    CHECK(outcomes.of(rows[1].combination_id).combinations == 2);
    CHECK(outcomes.of(rows[2].combination_id).combinations == 1);
    // Any member of an outcome names its first id.
    for (std::uint64_t id = 0; id < space.full_size(); ++id) {
        space.decode(id, values);
        if (values[fast] == 10) CHECK(outcomes.of(id).first_id == rows[0].combination_id);
    }

    const std::vector<std::string> table = lines(format_ranked_table(spec, space, rows, outcomes, kSharpe, 10));
    REQUIRE(table.size() == 5);
    CHECK(table[0] == "18 combinations, 10 distinct outcomes: one row per outcome");
    CHECK(table[1].find("combinations") != std::string::npos);
    // fast_period 10: every stop and both directions; fast_period 5: both directions.
    CHECK(table[2].find("any") != std::string::npos);
    CHECK(table[2].find("0.01|0.0316228|0.1") == std::string::npos);  // all three are "any"
    CHECK(table[3].find("false|true") == std::string::npos);          // both of two are "any"
    CHECK(table[4].find("any") == std::string::npos);                 // one combination: its values

    std::ostringstream json;
    write_results_json(json, RunSummary{}, spec, space, RowsInMemory(rows), outcomes);
    const nlohmann::json doc = nlohmann::json::parse(json.str());
    CHECK(doc["rows"][0]["outcome"]["combinations"] == 6);
    CHECK(doc["rows"][0]["outcome"]["parameter_values"]["allow_short"] == nlohmann::json::array({false, true}));
    CHECK(doc["rows"][0]["outcome"]["parameter_values"]["stop_pct"].size() == 3);
    CHECK_FALSE(doc["rows"][0]["outcome"]["parameter_values"].contains("fast_period"));
    CHECK(doc["rows"][1]["outcome"]["parameter_values"].size() == 1);
    CHECK(doc["rows"][2]["outcome"]["parameter_values"].empty());
}

TEST_CASE("an outcome's first id is its smallest, also where ids do not grow with the run order") {
    // A random grid (Note [Random combinations without materializing]):
    // ordinals map to ids in no order. Outcomes by fast_period alone.
    const StrategySpec spec = sma_spec();
    const Grid grid = parse_grid(R"({"strategy": "sma_cross", "parameters": {
        "fast_period": {"values": [5, 10, 15]}, "slow_period": {"values": [30, 40, 50, 60]},
        "stop_pct": {"values": [0.01, 0.02, 0.03, 0.04, 0.05]}},
        "random": {"count": 40, "seed": 9}})",
                                 "grid", spec);
    const CombinationSpace space(spec, grid);
    REQUIRE(space.is_random());
    const std::size_t fast = *spec.parameter_index("fast_period");
    std::vector<double> values(spec.parameters.size());
    std::vector<OutcomeKey> keys(space.count());
    std::map<double, std::uint64_t> smallest;
    std::map<double, std::uint64_t> size;
    bool ids_out_of_order = false;
    for (std::uint64_t ordinal = 0; ordinal < space.count(); ++ordinal) {
        const std::uint64_t id = space.combination_id(ordinal);
        ids_out_of_order = ids_out_of_order || (ordinal > 0 && id < space.combination_id(ordinal - 1));
        space.decode(id, values);
        keys[ordinal] = OutcomeKey{static_cast<unsigned long long>(values[fast]), 0};
        smallest[values[fast]] = smallest.count(values[fast]) ? std::min(smallest[values[fast]], id) : id;
        size[values[fast]] += 1;
    }
    CHECK(ids_out_of_order);
    const OutcomeIndex outcomes(space, 0, keys);
    CHECK(outcomes.distinct() == smallest.size());
    for (std::uint64_t ordinal = 0; ordinal < space.count(); ++ordinal) {
        const std::uint64_t id = space.combination_id(ordinal);
        space.decode(id, values);
        CHECK(outcomes.of(id).first_id == smallest[values[fast]]);
        CHECK(outcomes.of(id).combinations == size[values[fast]]);
    }
    // A combination the run did not draw is none of its outcomes.
    std::uint64_t absent = 0;
    while (space.ordinal_of(absent)) ++absent;
    CHECK_THROWS_AS(outcomes.of(absent), std::out_of_range);
    // A shard's index: the keys of ordinals 10.. only.
    const OutcomeIndex part(space, 10, std::span<const OutcomeKey>(keys).subspan(10, 5));
    CHECK(part.combinations() == 5);
    CHECK_THROWS_AS(part.of(space.combination_id(9)), std::out_of_range);
    CHECK(part.of(space.combination_id(12)).combinations >= 1);
}

TEST_CASE("the spool ranks every row exactly as TopN does, stored from several threads") {
    // Note [Rows spooled to disk]
    const RankOrder& sharpe = kSharpe;
    const std::uint64_t n = 20000;
    std::mt19937_64 rng(9);
    std::vector<ResultRow> rows(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        // Few distinct values (ties by id), rows with few trades and some invalid rows.
        rows[i] = row((i * 7919) % n, static_cast<double>(rng() % 50) - 25.0, static_cast<int>(rng() % 20));
        if (rng() % 10 == 0) rows[i].metrics.calmar = std::numeric_limits<double>::quiet_NaN();
    }
    RowSpool spool(std::filesystem::temp_directory_path(), n, sharpe);
    std::vector<std::thread> writers;
    for (std::uint64_t part = 0; part < 4; ++part) {
        writers.emplace_back([&, part] {
            for (std::uint64_t first = part * 8; first < n; first += 32) {
                const std::uint64_t count = std::min<std::uint64_t>(8, n - first);
                spool.store(first, std::span<const ResultRow>(rows.data() + first, count));
            }
        });
    }
    for (std::thread& t : writers) t.join();
    spool.rank();

    std::vector<ResultRow> expected = rows;
    std::sort(expected.begin(), expected.end(),
              [&](const ResultRow& a, const ResultRow& b) { return ranks_before(sharpe, a, b); });
    REQUIRE(spool.size() == n);
    for (std::uint64_t r = 0; r < n; ++r) {
        const ResultRow got = spool.at(r);
        CHECK(got.combination_id == expected[r].combination_id);
        CHECK(std::memcmp(&got.metrics, &expected[r].metrics, sizeof(Metrics)) == 0);
    }
}

TEST_CASE("the spool leaves no file behind") {
    const auto dir = std::filesystem::temp_directory_path() / "btforge-spool-test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    {
        RowSpool spool(dir, 10, kSharpe);
        const ResultRow r = row(1, 1.0);
        for (std::uint64_t i = 0; i < 10; ++i) spool.store(i, std::span<const ResultRow>(&r, 1));
        CHECK(std::filesystem::is_empty(dir));  // unnamed while in use, too
    }
    CHECK(std::filesystem::is_empty(dir));
    std::filesystem::remove_all(dir);
    CHECK_THROWS_WITH_AS(RowSpool("/proc/btforge-no-such-dir", 1, kSharpe),
                         doctest::Contains("cannot make the file that holds every row"), std::runtime_error);
}
