// The results files and the ranked table: Note [Rows with non-finite
// metrics], Note [Rows spooled to disk], Note [The ranked table].
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
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
    write_results_csv(csv, spec, space, ranked, 10);
    const std::vector<std::string> csv_lines = lines(csv.str());
    REQUIRE(csv_lines.size() == 4);
    CHECK(csv_lines[0].rfind("rank,combination_id,valid,enough_trades,fast_period,", 0) == 0);
    CHECK(csv_lines[1].rfind("1,1,true,true,", 0) == 0);
    CHECK(csv_lines[2].rfind("2,4,true,false,", 0) == 0);  // Note [Rows with few trades]
    CHECK(csv_lines[3].rfind("3,3,false,true,", 0) == 0);
    CHECK(csv_lines[3].find(",nan,") != std::string::npos);

    RunSummary summary;
    summary.combinations = 18;
    summary.invalid_rows = 1;
    summary.min_trades = 10;
    std::ostringstream json;
    write_results_json(json, summary, spec, space, ranked);
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
    write_results_json(json, RunSummary{}, spec, space, RowsInMemory(none));
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
    const std::string table = format_ranked_table(spec, space, rows, kSharpe, 10);
    const std::string header = lines(table).front();
    for (const char* varied : {"fast_period", "stop_pct", "allow_short"}) CHECK(header.find(varied) != std::string::npos);
    CHECK(header.find("slow_period") == std::string::npos);  // one value: not a column
    CHECK(header.find("valid") == std::string::npos);         // every shown row is valid
    CHECK(table.find("0.0316228") != std::string::npos);      // the log_range's middle value, 6 digits
    CHECK(table.find("0.031622776") == std::string::npos);
    CHECK(table.find("0.333333") != std::string::npos);

    ResultRow broken = row(0, 5.0);
    broken.metrics.sortino = std::numeric_limits<double>::infinity();
    const std::string marked =
        format_ranked_table(spec, space, {rows[0], broken}, kSharpe, 10);
    CHECK(lines(marked).front().find("valid") != std::string::npos);
    CHECK(lines(marked).back().find("NO") != std::string::npos);
    CHECK(header.find("enough_trades") == std::string::npos);  // every shown row has enough

    // Note [Rows with few trades]: a column and a line that says what it means.
    const std::string few = format_ranked_table(spec, space, {rows[0], row(2, 0.1, 3)}, kSharpe, 10);
    const std::vector<std::string> few_lines = lines(few);
    CHECK(few_lines.front().find("enough_trades") != std::string::npos);
    CHECK(few_lines[2].find("NO") != std::string::npos);
    CHECK(few_lines.back().find("fewer than 10 trades") != std::string::npos);
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
