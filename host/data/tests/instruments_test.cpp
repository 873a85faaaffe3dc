#include <doctest/doctest.h>

#include <string>

#include "host/data/data_error.h"
#include "host/data/instruments.h"
#include "host/data/margin_schedule_input.h"
#include "reference/margin/default_margin_schedule.h"
#include "host/io/tests/temp_dir.h"

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

// Note [Maintenance margin tiers]: the instruments file's margin keys.
TEST_CASE("instruments: maintenance tiers and liquidation fee, as an exchange publishes them") {
    const auto table = parse_instruments(R"({"BTCUSDT": {"maintenance_margin": [
            {"notional_floor": 0, "rate": 0.004, "amount": 0},
            {"notional_floor": 50000, "rate": 0.005, "amount": 50},
            {"notional_floor": 250000, "rate": 0.01}],
        "liquidation_fee": 0.0125}, "ETHUSDT": {"liquidation_fee": 0.005}, "X": {}})",
                                         "instruments.json");
    const btforge::MarginSchedule& btc = table.at("BTCUSDT").margin;
    CHECK(btc.n_tiers == 3);
    CHECK(btc.notional_floor[1] == 50000.0);
    CHECK(btc.rate[2] == 0.01);
    CHECK(btc.amount[1] == 50.0);
    CHECK(btc.amount[2] == doctest::Approx(1300.0).epsilon(1e-12));  // left out: the continuous one
    CHECK(btc.liquidation_fee == 0.0125);
    // A fee alone keeps the default tiers; nothing keeps the default schedule.
    const btforge::MarginSchedule fallback = btforge::default_margin_schedule();
    CHECK(table.at("ETHUSDT").margin.n_tiers == fallback.n_tiers);
    CHECK(table.at("ETHUSDT").margin.liquidation_fee == 0.005);
    CHECK(btforge::same_margin_schedule(table.at("X").margin, fallback));
}

TEST_CASE("instruments: a schedule that breaks a rule of Note [Maintenance margin tiers] names its JSON path") {
    struct Case {
        const char* json;
        const char* rule;
        const char* message_start;
    };
    const Case cases[] = {
        {R"({"A": {"maintenance_margin": []}})", "bad-margin-tier", "/A/maintenance_margin: expected an array of 1 to 16"},
        {R"({"A": {"maintenance_margin": {"rate": 0.01}}})", "bad-margin-tier", "/A/maintenance_margin: expected an array"},
        {R"({"A": {"maintenance_margin": [{"notional_floor": 10, "rate": 0.01}]}})", "bad-margin-tier",
         "/A/maintenance_margin/0/notional_floor: the first tier must start at 0"},
        {R"({"A": {"maintenance_margin": [{"notional_floor": 0, "rate": 0.01}, {"notional_floor": 0, "rate": 0.02}]}})",
         "bad-margin-tier", "/A/maintenance_margin/1/notional_floor: floors must increase"},
        {R"({"A": {"maintenance_margin": [{"notional_floor": 0, "rate": 0.02}, {"notional_floor": 5, "rate": 0.01}]}})",
         "bad-margin-tier", "/A/maintenance_margin/1/rate: a rate must not be below"},
        {R"({"A": {"maintenance_margin": [{"notional_floor": 0, "rate": 1}]}})", "bad-margin-tier",
         "/A/maintenance_margin/0/rate: expected a maintenance margin rate in (0, 1)"},
        {R"({"A": {"maintenance_margin": [{"notional_floor": 0, "rate": "1%"}]}})", "bad-margin-tier",
         "/A/maintenance_margin/0/rate: expected a number"},
        {R"({"A": {"maintenance_margin": [{"notional_floor": 0, "rate": 0.004}, {"notional_floor": 50000, "rate": 0.005, "amount": 60}]}})",
         "bad-margin-tier", "/A/maintenance_margin/1/amount: expected 50"},
        {R"({"A": {"maintenance_margin": [{"notional_floor": 0, "rate": 0.004, "cum": 0}]}})", "bad-margin-tier",
         "/A/maintenance_margin/0/cum: unknown key"},
        {R"({"A": {"maintenance_margin": [{"rate": 0.004}]}})", "bad-margin-tier",
         "/A/maintenance_margin/0: expected \"notional_floor\""},
        {R"({"A": {"liquidation_fee": 0.2}})", "out-of-range", "/A/liquidation_fee: expected a fraction of notional in [0, 0.1)"},
        {R"({"A": {"liquidation_fee": -0.01}})", "out-of-range", "/A/liquidation_fee: expected a fraction"},
    };
    for (const Case& c : cases) {
        CAPTURE(std::string(c.json));
        const DataError e = expect_error(c.json, c.rule);
        CHECK(e.message().rfind(c.message_start, 0) == 0);
    }
}

TEST_CASE("instruments: a schedule written and read back is the same") {
    TempDir dir;
    btforge::Instrument custom;
    custom.margin.n_tiers = 2;
    custom.margin.rate[1] = 0.006;
    custom.margin.amount[1] = custom.margin.notional_floor[1] * (0.006 - custom.margin.rate[0]);
    custom.margin.liquidation_fee = 0.004;
    btforge::write_instruments({"A", "B"}, {custom, btforge::Instrument{}}, dir.path() / "i.json");
    const auto table = load_instruments(dir.path() / "i.json");
    CHECK(btforge::same_margin_schedule(table.at("A").margin, custom.margin));
    CHECK(btforge::same_margin_schedule(table.at("B").margin, btforge::default_margin_schedule()));
}
