// Note [Checking finer bars], case by case: a market of two hourly bars of
// one symbol (100 / 103 / 98 / 101, then 101 / 102 / 100 / 100.5) and its
// 15-minute bars, each case changing one thing in the finer bars.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "host/data/data_error.h"
#include "host/data/finer_bars.h"
#include "host/data/market_builder.h"
#include "host/data/market_window.h"
#include "host/data/synthetic_market.h"

using namespace btforge;

namespace {

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kQuarter = 900'000;

Market market_of(const std::string& symbol, std::vector<Bar> bars) {
    std::vector<SymbolBars> symbols;
    symbols.push_back(SymbolBars{symbol, Instrument{}, std::move(bars)});
    return build_market(std::move(symbols));
}

Market hours() {
    return market_of("A", {{0, 100.0, 103.0, 98.0, 101.0, 1.0, 0.0}, {kHour, 101.0, 102.0, 100.0, 100.5, 1.0, 0.0}});
}

// Four quarters through each hour that agree with it.
std::vector<Bar> quarters() {
    return {{0, 100.0, 101.0, 99.5, 100.5, 1.0, 0.0},          {kQuarter, 100.5, 103.0, 100.5, 102.0, 1.0, 0.0},
            {2 * kQuarter, 102.0, 102.0, 98.0, 99.0, 1.0, 0.0}, {3 * kQuarter, 99.0, 101.0, 99.0, 101.0, 1.0, 0.0},
            {kHour, 101.0, 101.5, 100.5, 101.0, 1.0, 0.0},      {kHour + kQuarter, 101.0, 102.0, 101.0, 101.5, 1.0, 0.0},
            {kHour + 2 * kQuarter, 101.5, 101.5, 100.0, 100.5, 1.0, 0.0},
            {kHour + 3 * kQuarter, 100.5, 100.5, 100.5, 100.5, 1.0, 0.0}};
}

}  // namespace

TEST_CASE("attach_finer_bars: a bar keeps its path only when all its finer bars are there and agree with it") {
    struct Case {
        const char* what;
        std::function<void(std::vector<Bar>&)> edit;
        std::size_t with_path, missing, disagreeing;
        std::vector<std::uint8_t> path;
    };
    const std::vector<Case> cases = {
        {"all there, all agree", [](std::vector<Bar>&) {}, 2, 0, 0, {1, 1}},
        {"a quarter missing", [](std::vector<Bar>& q) { q.erase(q.begin() + 1); }, 1, 1, 0, {0, 1}},
        {"the last quarter of the last hour missing", [](std::vector<Bar>& q) { q.pop_back(); }, 1, 1, 0, {1, 0}},
        {"the first open is not the hour's", [](std::vector<Bar>& q) { q[0].open = 100.01; }, 1, 0, 1, {0, 1}},
        {"the highest high falls short", [](std::vector<Bar>& q) { q[1].high = 102.5; }, 1, 0, 1, {0, 1}},
        {"a low below the hour's", [](std::vector<Bar>& q) { q[5].low = 99.0; }, 1, 0, 1, {1, 0}},
        {"the last close is not the hour's", [](std::vector<Bar>& q) { q[7].close = q[7].low = 100.4; }, 1, 0, 1,
         {1, 0}},
    };
    for (const Case& c : cases) {
        CAPTURE(std::string(c.what));
        std::vector<Bar> finer = quarters();
        c.edit(finer);
        Market market = hours();
        const FinerBarsUse use = attach_finer_bars(market, market_of("A", finer), "finer.csv");
        CHECK(use.per_bar == 4);
        CHECK(use.bars == 2);
        CHECK(use.with_path == c.with_path);
        CHECK(use.missing == c.missing);
        CHECK(use.disagreeing == c.disagreeing);
        CHECK(market.finer.path == c.path);
        const MarketView view = market.view();
        CHECK(view.fine_per_bar == 4);
        // Each case edits only the hour it takes the path of, so a kept path is the unedited quarters.
        const std::vector<Bar> unedited = quarters();
        for (int t = 0; t < 2; ++t) {
            if (c.path[t] == 0) continue;
            for (int k = 0; k < 4; ++k) {
                CHECK(view.fine_open[finer_bar_index(view, t, k)] == unedited[t * 4 + k].open);
                CHECK(view.fine_high[finer_bar_index(view, t, k)] == unedited[t * 4 + k].high);
                CHECK(view.fine_low[finer_bar_index(view, t, k)] == unedited[t * 4 + k].low);
            }
        }
    }
}

TEST_CASE("attach_finer_bars: a symbol the finer file lacks, a bar where the symbol has none") {
    std::vector<SymbolBars> symbols;
    symbols.push_back(SymbolBars{"A", Instrument{}, {{0, 100.0, 103.0, 98.0, 101.0, 1.0, 0.0},
                                                     {kHour, 101.0, 102.0, 100.0, 100.5, 1.0, 0.0}}});
    symbols.push_back(SymbolBars{"B", Instrument{}, {{kHour, 50.0, 51.0, 49.0, 50.5, 1.0, 0.0}}});
    Market market = build_market(std::move(symbols));
    const FinerBarsUse use = attach_finer_bars(market, market_of("A", quarters()), "finer.csv");
    CHECK(use.bars == 3);  // B's first hour is not one of its bars
    CHECK(use.with_path == 2);
    CHECK(use.missing == 1);
    CHECK(market.finer.path == std::vector<std::uint8_t>{1, 1, 0, 0});
}

TEST_CASE("attach_finer_bars: finer bars that do not divide the bars are refused") {
    struct Case {
        const char* what;
        std::vector<Bar> finer;
        const char* says;
    };
    const Case cases[] = {
        {"40-minute bars", {{0, 100, 100, 100, 100, 1, 0}, {2'400'000, 100, 100, 100, 100, 1, 0}},
         "its 40-minute bars do not divide the market's 1-hour bars into two or more"},
        {"bars as long as the market's", {{0, 100, 100, 100, 100, 1, 0}, {kHour, 100, 100, 100, 100, 1, 0}},
         "its 1-hour bars do not divide the market's 1-hour bars into two or more"},
        {"a single finer bar", {{0, 100, 100, 100, 100, 1, 0}}, "at least two timestamps"},
    };
    for (const Case& c : cases) {
        CAPTURE(std::string(c.what));
        Market market = hours();
        try {
            attach_finer_bars(market, market_of("A", c.finer), "finer.csv");
            FAIL("accepted");
        } catch (const DataError& e) {
            CHECK(e.rule() == "finer-bars-do-not-divide");
            CHECK(e.file() == "finer.csv");
            CHECK(e.message().find(c.says) != std::string::npos);
        }
        CHECK(market.finer.per_bar == 0);
    }
}

TEST_CASE("attach_finer_bars: arrays larger than the memory given them are refused before any is allocated") {
    Market market = hours();
    const Market finer = market_of("A", quarters());
    CHECK(finer_bars_memory_limit() > 0.0);
    try {
        // 4 finer bars per bar for the market's cells take 97 bytes per cell.
        attach_finer_bars(market, finer, "finer.csv", 50.0);
        FAIL("accepted");
    } catch (const DataError& e) {
        CHECK(e.rule() == "too-large");
        CHECK(e.file() == "finer.csv");
        CHECK(e.message().find("4 finer bars per bar for") != std::string::npos);
        CHECK(e.message().find("give fewer symbols or bars, or coarser finer bars") != std::string::npos);
    }
    CHECK(market.finer.per_bar == 0);
    CHECK(market.finer.open.empty());
    CHECK(attach_finer_bars(market, finer, "finer.csv", 1e6).per_bar == 4);
}

TEST_CASE("finer bars follow a window of the market (Note [Market windows])") {
    Market market = hours();
    attach_finer_bars(market, market_of("A", quarters()), "finer.csv");
    const MarketView whole = market.view();
    const MarketView second = window_view(whole, MarketWindow{1, 1});
    CHECK(second.fine_path[0] == 1);
    CHECK(second.fine_open[finer_bar_index(second, 0, 0)] == 101.0);
    CHECK(second.fine_low[finer_bar_index(second, 0, 2)] == 100.0);
}

TEST_CASE("make_synthetic_finer_bars: paths that attach_finer_bars accepts, and the faults it is asked for") {
    SyntheticMarketOptions options;
    options.n_symbols = 2;
    options.n_bars = 500;
    Market market = make_synthetic_market(options);
    FinerBarsUse clean = attach_finer_bars(market, make_synthetic_finer_bars(market, 60, options.bar_ms, 5, 0), "s");
    CHECK(clean.with_path == clean.bars);
    Market faulty_market = make_synthetic_market(options);
    FinerBarsUse faulty =
        attach_finer_bars(faulty_market, make_synthetic_finer_bars(faulty_market, 12, options.bar_ms, 5, 10), "s");
    CHECK(faulty.with_path + faulty.missing + faulty.disagreeing == faulty.bars);
    CHECK(faulty.missing > 0);
    CHECK(faulty.disagreeing > 0);
    CHECK(faulty.with_path > faulty.bars * 3 / 4);
}
