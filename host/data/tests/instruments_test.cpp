#include <doctest/doctest.h>

#include <string>

#include "host/data/data_error.h"
#include "host/data/instruments.h"
#include "host/data/tests/temp_dir.h"

using btforge::DataError;
using btforge::Instrument;
using btforge::load_instruments;
using btforge::parse_instruments;
using btforge::testing::TempDir;

namespace {

DataError expect_error(const std::string& json, const std::string& rule) {
    try {
        (void)parse_instruments(json, "instruments.json");
    } catch (const DataError& e) {
        INFO(e.what());
        CHECK(e.rule() == rule);
        CHECK(e.file() == "instruments.json");
        return e;
    }
    FAIL("no DataError for rule " << rule);
    return DataError("", 0, 0, "", "");
}

}  // namespace

TEST_CASE("instruments: values and defaults") {
    const auto table = parse_instruments(
        R"({"BTCUSDT": {"qty_step": 0.001, "min_qty": 0.002, "price_tick": 0.1}, "X": {"price_tick": 1}, "Y": {}})",
        "instruments.json");
    REQUIRE(table.size() == 3);
    CHECK(table.at("BTCUSDT").qty_step == 0.001);
    CHECK(table.at("BTCUSDT").min_qty == 0.002);
    CHECK(table.at("BTCUSDT").price_tick == 0.1);
    CHECK(table.at("X").price_tick == 1.0);
    CHECK(table.at("X").qty_step == Instrument{}.qty_step);
    CHECK(table.at("Y").min_qty == Instrument{}.min_qty);
    CHECK(parse_instruments("{}", "f").empty());
}

TEST_CASE("instruments: a bad value names its JSON path") {
    const auto e = expect_error(R"({"BTCUSDT": {"qty_step": "x"}})", "expected-positive-number");
    CHECK(std::string(e.what()) ==
          "instruments.json: expected-positive-number: /BTCUSDT/qty_step: expected a positive number, got \"x\"");
    CHECK(e.line() == 0);
    expect_error(R"({"BTCUSDT": {"min_qty": 0}})", "expected-positive-number");
    expect_error(R"({"BTCUSDT": {"price_tick": -0.1}})", "expected-positive-number");
    expect_error(R"({"BTCUSDT": {"price_tick": null}})", "expected-positive-number");
    expect_error(R"({"BTCUSDT": {"price_tick": true}})", "expected-positive-number");
}

TEST_CASE("instruments: unknown keys, wrong shapes, repeated keys") {
    const auto e = expect_error(R"({"BTCUSDT": {"qty_stp": 0.001}})", "unknown-key");
    CHECK(e.message().rfind("/BTCUSDT/qty_stp:", 0) == 0);
    CHECK(expect_error(R"([1, 2])", "expected-object").message().rfind("/:", 0) == 0);
    CHECK(expect_error(R"({"ETH": 5})", "expected-object").message().rfind("/ETH:", 0) == 0);
    CHECK(expect_error(R"({"A/B": []})", "expected-object").message().rfind("/A~1B:", 0) == 0);
    CHECK(expect_error(R"({"A": {"qty_step": 1, "qty_step": 2}})", "duplicate-key").message().rfind(
              "/A/qty_step:", 0) == 0);
    CHECK(expect_error(R"({"A": {}, "B": {}, "A": {}})", "duplicate-key").message().rfind("/A:", 0) == 0);
}

TEST_CASE("instruments: malformed JSON names line and column") {
    const auto e = expect_error("{\n  \"A\": {\"qty_step\": 0.1,}\n}", "bad-json");
    CHECK(e.line() == 2);
    CHECK(e.column() > 0);
}

TEST_CASE("instruments: files") {
    TempDir dir;
    CHECK_THROWS_AS(load_instruments(dir.path() / "absent.json"), DataError);
    const std::vector<std::string> symbols{"A", "B"};
    const std::vector<Instrument> instruments{{0.5, 1.5, 0.25}, {0.001, 0.003, 1e-7}};
    btforge::write_instruments(symbols, instruments, dir.path() / "i.json");
    const auto table = load_instruments(dir.path() / "i.json");
    CHECK(table.at("A").min_qty == 1.5);
    CHECK(table.at("B").qty_step == 0.001);
    CHECK(table.at("B").price_tick == 1e-7);
    CHECK(dir.entry_count() == 1);
}
