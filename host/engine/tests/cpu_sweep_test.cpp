#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "host/engine/tests/small_sweep.h"
#include "reference/accounting/quantize.h"

using namespace btforge;
using btforge::testing::SmallSweep;

namespace {

const char* kDefaultGrid = R"({"strategy": "default", "parameters": {
    "ema_fast": {"values": [5, 12]}, "ema_slow": {"values": [30, 60]}, "mode": {"values": [0, 1]},
    "adx_min": {"values": [0, 20]}, "sl_atr": {"values": [1.5, 3]}, "breadth_min": {"values": [0, 0.5]},
    "trail_atr": {"values": [0, 1]}}})";

const char* kSmaGrid = R"({"strategy": "sma_cross", "parameters": {
    "fast_period": {"values": [5, 10, 20]}, "slow_period": {"values": [30, 50]},
    "stop_pct": {"values": [0.02, 0.05]}, "allow_short": {"values": [false, true]}}})";

bool same_bits(const Metrics& a, const Metrics& b) { return std::memcmp(&a, &b, sizeof(Metrics)) == 0; }

}  // namespace

TEST_CASE("results are bit-identical with 1 and with N threads, for both strategies") {
    for (auto [spec_file, grid] : {std::pair{"default.json", kDefaultGrid},
                                   std::pair{"sma_cross.json", kSmaGrid}}) {
        CAPTURE(spec_file);
        SmallSweep sweep(spec_file, grid);
        SweepOutcome one = sweep.run(1);
        SweepOutcome many = sweep.run(3);
        REQUIRE(one.all.size() == sweep.space.count());
        REQUIRE(many.all.size() == one.all.size());
        int traded = 0;
        for (std::size_t i = 0; i < one.all.size(); ++i) {
            CHECK(one.all[i].combination_id == many.all[i].combination_id);
            CHECK(same_bits(one.all[i].metrics, many.all[i].metrics));
            traded += one.all[i].metrics.n_trades > 0 ? 1 : 0;
        }
        CHECK(traded > 0);  // the workload exercises trading, not only empty runs
        REQUIRE(one.top.size() == many.top.size());
        for (std::size_t i = 0; i < one.top.size(); ++i) CHECK(one.top[i].combination_id == many.top[i].combination_id);
    }
}

TEST_CASE("a replayed combination, with its fill log, reproduces its sweep row bit for bit") {
    SmallSweep sweep("default.json", kDefaultGrid);
    SweepOutcome outcome = sweep.run(2);
    for (std::size_t ordinal : {std::size_t{0}, outcome.all.size() / 2, outcome.all.size() - 1}) {
        const ResultRow& row = outcome.all[ordinal];
        std::vector<double> values(sweep.spec.parameters.size());
        sweep.space.decode(row.combination_id, values);
        std::vector<std::vector<double>> single;
        for (double v : values) single.push_back({v});
        SeriesCache own = SeriesCache::build(sweep.spec, sweep.market, single, 1);
        SweepJob job = sweep.job;
        job.series = &own;
        std::vector<FillRecord> fills(100000);
        FillLog log{fills.data(), static_cast<int>(fills.size()), 0};
        std::vector<double> equity(static_cast<std::size_t>(sweep.market.n_bars()));
        Metrics replayed = run_combination(job, values, &log, equity.data());
        CHECK(same_bits(replayed, row.metrics));
        CHECK(equity.back() == row.metrics.final_equity);
        int entries = 0;
        double funding = 0.0;  // Note [Funding in the fill log]: the settlements add up to the account's funding
        for (int i = 0; i < log.count; ++i) {
            const FillRecord& record = fills[static_cast<std::size_t>(i)];
            entries += record.reason == kEntry ? 1 : 0;
            if (record.reason == kFunding) funding = quantize(funding + record.funding);
        }
        CHECK(entries == row.metrics.n_trades);  // every entry was closed by the end of data
        CHECK(funding == row.metrics.funding_paid);
    }
}

TEST_CASE("each indicator series is computed once per distinct parameter set") {
    SmallSweep sweep("default.json", kDefaultGrid);
    // ema_fast 2 + ema_slow 2 + rsi 1 + adx 1 + atr 1 + bb_upper 1 + bb_lower 1 + breadth 1
    CHECK(sweep.series.distinct_series() == 10);
}

TEST_CASE("Note [Indicator input column]: the column is part of a series' identity and changes its values") {
    // sma_cross with both SMAs at one period: of the close they are one
    // series; the fast one of the high makes two, each the SMA of its column.
    std::string text(*embedded_spec_file("sma_cross.json"));
    StrategySpec own = parse_strategy_spec(text, "sma_cross.json", indicator_signatures());
    nlohmann::json document = nlohmann::json::parse(text);
    document["indicators"][0]["input"] = "high";
    StrategySpec high = parse_strategy_spec(document.dump(), "sma_cross high.json", indicator_signatures());
    const Market market = make_synthetic_market(SyntheticMarketOptions{7, 2, 500, 3'600'000, 1'704'067'200'000,
                                                                       kDefaultFundingIntervalMs});
    const std::vector<std::vector<double>> values = {{10}, {10}, {0.05}, {0.1}, {1}};
    SeriesCache same = SeriesCache::build(own, market, values, 1);
    SeriesCache two = SeriesCache::build(high, market, values, 1);
    CHECK(same.distinct_series() == 1);
    REQUIRE(two.distinct_series() == 2);
    CHECK(two.keys()[0].input == "high");
    CHECK(two.keys()[1].input == "close");
    const std::size_t n = two.series_length();
    // Symbol 0's last own bar: the mean of its last 10 highs, and of its closes.
    double high_sum = 0, close_sum = 0;
    const std::vector<int>& bars = market.own_bars[0];
    const int last = bars.back();
    for (std::size_t k = bars.size() - 10; k < bars.size(); ++k) {
        high_sum += market.high[market.index(0, bars[k])];
        close_sum += market.close[market.index(0, bars[k])];
    }
    CHECK(two.data()[market.index(0, last)] == doctest::Approx(high_sum / 10).epsilon(1e-12));
    CHECK(two.data()[n + market.index(0, last)] == doctest::Approx(close_sum / 10).epsilon(1e-12));
    CHECK(two.data()[n + market.index(0, last)] == same.data()[market.index(0, last)]);
}

TEST_CASE("a spec that disagrees with its kernel's binding is rejected by name") {
    std::string text(*embedded_spec_file("sma_cross.json"));
    std::size_t fast = text.find("\"fast_period\"");
    std::size_t slow = text.find("\"slow_period\"");
    REQUIRE(fast != std::string::npos);
    REQUIRE(slow != std::string::npos);
    // Swap the two names: same parameters, different order.
    text.replace(slow, 13, "\"tmp_period__\"");
    text.replace(fast, 13, "\"slow_period\"");
    text.replace(text.find("\"tmp_period__\""), 14, "\"fast_period\"");
    StrategySpec spec = parse_strategy_spec(text, "swapped.json", indicator_signatures());
    CHECK_THROWS_WITH_AS(bind_strategy(spec), doctest::Contains("do not match its kernel"), std::runtime_error);
}

TEST_CASE("Note [Markets without funding]: a market whose rates are all 0 skips its settlements, and no bit moves") {
    for (auto [spec_file, grid] : {std::pair{"default.json", kDefaultGrid},
                                   std::pair{"sma_cross.json", kSmaGrid}}) {
        CAPTURE(spec_file);
        SmallSweep sweep(spec_file, grid);
        REQUIRE_FALSE(sweep.market.funding_free());
        CHECK(sweep.job.view().funding_free == 0);
        int settling = 0;
        for (std::int32_t events : sweep.market.funding_events) settling += events > 0 ? 1 : 0;
        REQUIRE(settling > 0);  // the funding times stay; only their rates become 0
        std::fill(sweep.market.funding_rate.begin(), sweep.market.funding_rate.end(), 0.0);
        REQUIRE(sweep.market.funding_free());
        REQUIRE(sweep.job.view().funding_free == 1);
        SweepOutcome skipped = sweep.run(2);
        int traded = 0;
        for (const ResultRow& row : skipped.all) {
            std::vector<double> values(sweep.spec.parameters.size());
            sweep.space.decode(row.combination_id, values);
            std::vector<const double*> series(sweep.spec.indicators.size());
            sweep.job.resolve_series(values, series);
            MarketView settled = sweep.job.view();
            settled.funding_free = 0;  // every funding time settled, at its rate of 0
            Metrics m{};
            sweep.job.binding->run(settled, series.data(), values.data(), sweep.job.account, m, nullptr, nullptr,
                                   nullptr);
            CHECK(same_bits(m, row.metrics));
            traded += row.metrics.n_trades > 0 ? 1 : 0;
        }
        CHECK(traded > 0);
    }
}

TEST_CASE("Market::funding_free: a single settlement at a nonzero rate makes a market settle funding") {
    SmallSweep sweep("sma_cross.json", kSmaGrid);
    std::fill(sweep.market.funding_rate.begin(), sweep.market.funding_rate.end(), 0.0);
    CHECK(sweep.market.funding_free());
    std::size_t last_event = 0;
    for (std::size_t i = 0; i < sweep.market.funding_events.size(); ++i) {
        if (sweep.market.funding_events[i] > 0) last_event = i;
    }
    REQUIRE(sweep.market.funding_events[last_event] > 0);
    sweep.market.funding_rate[last_event] = -1e-8;
    CHECK_FALSE(sweep.market.funding_free());
    CHECK(sweep.market.view().funding_free == 0);
    sweep.market.funding_events[last_event] = 0;  // a rate at a bar that settles no funding time counts for nothing
    CHECK(sweep.market.funding_free());
}
