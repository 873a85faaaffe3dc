// The generated indicator kernels (generated/indicator_series.cu), compiled
// for the host, against the reference's series (SeriesCache::build), value by
// value, bit for bit: a table of cases per indicator with the edge cases
// (period 1, period longer than the data, flat stretches, gaps, late starts),
// on the randomized parity market.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "host/backends/emu/emu_indicators.h"
#include "host/backends/indicator_jobs.h"
#include "host/engine/indicator_signatures.h"
#include "host/indicators/indicator_registry.h"
#include "host/parity/parity_market.h"
#include "host/spec/strategy_spec.h"

namespace btforge {
namespace {

struct Case {
    const char* indicator;
    const char* output;  // "" for the default
    const char* params;  // JSON object of literal arguments
};

// Every indicator of the catalog at least once.
const Case kCases[] = {
    {"SMA", "", R"({"period": 1})"},
    {"SMA", "", R"({"period": 30})"},
    {"SMA", "", R"({"period": 5000})"},  // longer than every symbol's bars: all NaN
    {"EMA", "", R"({"period": 1})"},
    {"EMA", "", R"({"period": 50})"},
    {"WMA", "", R"({"period": 10})"},
    {"KAMA", "", R"({"period": 1})"},
    {"KAMA", "", R"({"period": 30})"},
    {"RSI", "", R"({"period": 2})"},
    {"RSI", "", R"({"period": 14})"},
    {"MACD", "macd", R"({"fast": 12, "slow": 26, "signal": 9})"},
    {"MACD", "signal", R"({"fast": 12, "slow": 26, "signal": 9})"},
    {"MACD", "hist", R"({"fast": 26, "slow": 12, "signal": 1})"},  // fast > slow: TA-Lib swaps them
    {"BBANDS", "upper", R"({"period": 20, "k": 2})"},
    {"BBANDS", "middle", R"({"period": 2, "k": 0})"},
    {"BBANDS", "lower", R"({"period": 20, "k": 1.5})"},
    {"ATR", "", R"({"period": 1})"},
    {"ATR", "", R"({"period": 14})"},
    {"PLUS_DI", "", R"({"period": 1})"},
    {"PLUS_DI", "", R"({"period": 14})"},
    {"MINUS_DI", "", R"({"period": 14})"},
    {"ADX", "", R"({"period": 2})"},
    {"ADX", "", R"({"period": 14})"},
    {"STOCH", "slowk", R"({"fastk": 5, "slowk": 3, "slowd": 3})"},
    {"STOCH", "slowd", R"({"fastk": 1, "slowk": 1, "slowd": 1})"},
    {"CCI", "", R"({"period": 20})"},
    {"MFI", "", R"({"period": 14})"},
    {"OBV", "", R"({})"},
    {"WILLR", "", R"({"period": 14})"},
    {"ROC", "", R"({"period": 1})"},
    {"ROC", "", R"({"period": 10})"},
    {"MAX", "", R"({"period": 20})"},
    {"MIN", "", R"({"period": 20})"},
    {"BREADTH", "", R"({"period": 1})"},
    {"BREADTH", "", R"({"period": 50})"},
};

// A spec whose indicator uses are exactly `cases`, all with literal arguments.
StrategySpec spec_of(const std::vector<Case>& cases) {
    std::string uses;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        uses += std::string(i == 0 ? "" : ",") + R"({"id": "use)" + std::to_string(i) + R"(", "indicator": ")" +
                c.indicator + "\"" + (c.output[0] != '\0' ? std::string(R"(, "output": ")") + c.output + "\"" : "") +
                R"(, "params": )" + c.params + "}";
    }
    const std::string text = R"({"strategy": "indicator_table", "description": "test",
        "account": {"initial_equity": 10000, "maker_fee": 0, "taker_fee": 0, "slippage": 0},
        "parameters": [{"name": "unused", "type": "int", "default": 1, "min": 1, "max": 2, "series": false,
                        "description": "no indicator reads it"}],
        "indicators": [)" + uses + "]}";
    return parse_strategy_spec(text, "indicator_kernels_test", indicator_signatures());
}

bool same_bits(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b) || (std::isnan(a) && std::isnan(b));
}

}  // namespace

TEST_CASE("every catalog indicator but BREADTH has a generated kernel, and only those") {
    for (const IndicatorDescriptor& d : indicator_catalog()) {
        CAPTURE(d.name);
        if (d.cross_symbol) {
            CHECK(indicator_kind(d.name) < 0);
        } else {
            CHECK(indicator_kind(d.name) >= 0);
        }
    }
    CHECK(indicator_kind("NO_SUCH") < 0);
}

TEST_CASE("indicator jobs: one per (series, symbol); BREADTH adds an EMA slot and a breadth job") {
    const parity::ParityMarket market = parity::make_parity_market({11, 3, 500});
    const StrategySpec spec = spec_of({{"SMA", "", R"({"period": 5})"}, {"BREADTH", "", R"({"period": 7})"}});
    std::vector<std::vector<double>> values = {{1.0}};
    const SeriesCache plan = SeriesCache::plan(spec, market.market, values);
    CHECK_FALSE(plan.computed());
    CHECK(plan.data() == nullptr);
    const IndicatorJobs jobs = plan_indicator_jobs(plan, market.market);
    const long long length = 3LL * market.market.n_bars();
    CHECK(jobs.distinct_series == 2);
    CHECK(jobs.series_slots == 3);
    REQUIRE(jobs.jobs.size() == 6);
    CHECK(jobs.jobs[1].kind == indicator_kind("SMA"));
    CHECK(jobs.jobs[1].symbol == 1);
    CHECK(jobs.jobs[1].series_offset == market.market.n_bars());
    CHECK(jobs.jobs[5].kind == indicator_kind("EMA"));
    CHECK(jobs.jobs[5].args[0] == 7.0);
    CHECK(jobs.jobs[5].series_offset == 2 * length + 2LL * market.market.n_bars());
    REQUIRE(jobs.breadth.size() == 1);
    CHECK(jobs.breadth[0].ema_offset == 2 * length);
    CHECK(jobs.breadth[0].series_offset == length);
    CHECK(jobs.own_begin.back() == static_cast<int>(jobs.own_bars.size()));
    // A batch holds at least one job however small the scratch.
    CHECK(jobs.batches(1).size() == jobs.jobs.size());
    CHECK(jobs.batches(std::size_t{1} << 30).size() == 1);
}

TEST_CASE("the generated indicator kernels reproduce the reference series bit for bit") {
    // Gaps, jumps, spikes and flat stretches (Note [Parity market]); symbol
    // rows start at different bars.
    const parity::ParityMarket market = parity::make_parity_market({20240601, 4, 3000});
    const std::vector<Case> cases(std::begin(kCases), std::end(kCases));
    const StrategySpec spec = spec_of(cases);
    std::vector<std::vector<double>> values = {{1.0}};
    const SeriesCache reference = SeriesCache::build(spec, market.market, values, 2);
    const SeriesCache plan = SeriesCache::plan(spec, market.market, values);
    REQUIRE(plan.keys() == reference.keys());
    for (int threads : {1, 2}) {
        const std::vector<double> emu = emu_compute_series(plan, market.market, threads);
        REQUIRE(emu.size() == reference.distinct_series() * reference.series_length());
        for (std::size_t k = 0; k < reference.distinct_series(); ++k) {
            const SeriesKey& key = reference.keys()[k];
            CAPTURE(key.indicator);
            CAPTURE(key.output);
            CAPTURE(key.args);
            std::size_t identical = 0;
            std::size_t numbers = 0;
            for (std::size_t i = 0; i < reference.series_length(); ++i) {
                const double r = reference.data()[k * reference.series_length() + i];
                identical += same_bits(emu[k * reference.series_length() + i], r) ? 1 : 0;
                numbers += std::isnan(r) ? 0 : 1;
            }
            CHECK(identical == reference.series_length());
            // Every case but the over-long SMA yields numbers.
            if (!(key.indicator == "SMA" && key.args[0] == 5000.0)) CHECK(numbers > 0);
        }
    }
}

}  // namespace btforge
