// Note [Funding history]: which bar charges each settlement, worked by hand
// on one symbol with hourly bars and a gap, then the file's rules.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "host/data/data_error.h"
#include "host/data/funding_history.h"
#include "host/data/market_builder.h"
#include "host/io/tests/temp_dir.h"

namespace btforge {
namespace {

constexpr std::int64_t kH = 3'600'000;
constexpr std::int64_t kT0 = 1'704'067'200'000;  // 2024-01-01T00:00Z

// AUSDT: bars at 00:00, 01:00, 02:00, 05:00, 06:00 (a gap from 02:00 to 05:00).
Market one_symbol_market() {
    SymbolBars a;
    a.symbol = "AUSDT";
    for (int h : {0, 1, 2, 5, 6}) a.bars.push_back(Bar{kT0 + h * kH, 100, 101, 99, 100, 1, 0.0001});
    std::vector<SymbolBars> symbols;
    symbols.push_back(a);
    return build_market(std::move(symbols));
}

FundingHistory history_of(std::vector<FundingSettlement> list, std::vector<std::string> symbols = {"AUSDT"}) {
    FundingHistory h;
    h.file = "f.csv";
    h.symbols = std::move(symbols);
    h.settlements.assign(h.symbols.size(), {});
    h.settlements[0] = std::move(list);
    return h;
}

TEST_CASE("each settlement is charged at the bar holding its time, gaps and sums worked by hand") {
    Market m = one_symbol_market();
    const FundingHistoryUse use = apply_funding_history(
        m, history_of({
               {kT0 - kH, 0.5, 2},           // before the first bar: not charged
               {kT0, 0.5, 3},                // at the first bar: no position can exist yet, not charged
               {kT0 + kH / 2, 0.001, 4},     // (00:00, 01:00] -> bar 01:00
               {kT0 + 2 * kH, 0.002, 5},     // exactly 02:00 -> bar 02:00
               {kT0 + 3 * kH, 0.003, 6},     // in the gap: (02:00, 05:00] -> bar 05:00 ...
               {kT0 + 4 * kH, 0.004, 7},     // ... with a different rate: one settlement of the sum
               {kT0 + 5 * kH + 1, 0.006, 8}, // -> bar 06:00 ...
               {kT0 + 6 * kH, 0.006, 9},     // ... the same rate again: charged twice
               {kT0 + 7 * kH, 0.5, 10},      // after the last bar: not charged
           }));
    const auto events = [&](int bar) { return m.funding_events[m.index(0, bar)]; };
    const auto rate = [&](int bar) { return m.funding_rate[m.index(0, bar)]; };
    // Aligned bars: 00, 01, 02, 05, 06 (the market's own grid).
    CHECK(events(0) == 0);
    CHECK((events(1) == 1 && rate(1) == 0.001));
    CHECK((events(2) == 1 && rate(2) == 0.002));
    CHECK((events(3) == 1 && rate(3) == 0.003 + 0.004));
    CHECK((events(4) == 2 && rate(4) == 0.006));
    CHECK(use.symbols_covered == 1);
    CHECK(use.settlements_charged == 6);
    CHECK(use.bars_charged == 4);
    CHECK(use.before_first_bar == 2);
    CHECK(use.after_last_bar == 1);
    const std::string said = describe_funding_history_use(history_of({}), use);
    CHECK(said.find("3 not charged") != std::string::npos);
}

TEST_CASE("symbols: unknown ones are listed, market symbols without rates keep theirs") {
    Market m = one_symbol_market();
    const FundingHistoryUse use = apply_funding_history(m, history_of({{kT0 + kH, 0.01, 2}}, {"ZUSDT"}));
    CHECK(use.unknown_symbols == std::vector<std::string>{"ZUSDT"});
    CHECK(use.symbols_without_rates == std::vector<std::string>{"AUSDT"});
    CHECK(m.funding_rate[m.index(0, 1)] == 0.0001);  // the market's own, untouched
}

TEST_CASE("funding files: settlements closer than an hour are refused, 59 minutes apart and other symbols are not") {
    testing::TempDir dir;
    // Was: 1,000 settlements within an hour, charged at one bar as the sum of their rates.
    std::string text = "timestamp,symbol,rate\n";
    for (int k = 0; k < 1000; ++k) text += std::to_string(kT0 + kH + k * 3'000) + ",AUSDT,0.85\n";
    try {
        load_funding_history(dir.write("many.csv", text), std::nullopt);
        FAIL("accepted");
    } catch (const DataError& e) {
        CHECK(e.rule() == "settlements-too-close");
        CHECK(e.line() == 3);
        CHECK(e.message() == "AUSDT settles at 2024-01-01T01:00:03.000Z, 3s from its settlement at "
                             "2024-01-01T01:00:00.000Z (line 2): settlements of a symbol are at least 59m apart (no "
                             "exchange settles more often than hourly)");
    }
    const FundingHistory h = load_funding_history(
        dir.write("ok.csv", "timestamp,symbol,rate\n2024-01-01T00:00Z,AUSDT,0.1\n2024-01-01T00:59Z,AUSDT,0.1\n"
                            "2024-01-01T00:00:01Z,BUSDT,0.1\n2024-01-01T01:58Z,AUSDT,-0.1\n"),
        std::nullopt);
    CHECK(h.settlements[0].size() == 3);
    CHECK(h.settlements[1].size() == 1);
}

TEST_CASE("funding files: rows in any order, and each rule at its line and field") {
    testing::TempDir dir;
    const FundingHistory h = load_funding_history(
        dir.write("ok.csv", "Symbol,Rate,Timestamp,note\nBUSDT,0.0002,2024-01-01T08:00Z,x\nAUSDT,-1e-4,1704067200000,y\n"
                            "BUSDT,0.0001,2024-01-01T00:00Z,z\n"),
        std::nullopt);
    REQUIRE(h.symbols == std::vector<std::string>{"BUSDT", "AUSDT"});
    REQUIRE(h.settlements[0].size() == 2);
    CHECK(h.settlements[0][0].time_ms == kT0);  // sorted by time
    CHECK(h.settlements[0][0].rate == 0.0001);
    CHECK(h.settlements[0][1].line == 2);
    CHECK(h.settlements[1][0].rate == -1e-4);
    CHECK(h.epoch_unit == EpochUnit::Milliseconds);

    struct Case {
        const char* text;
        const char* rule;
        std::size_t line, column;
    };
    const Case cases[] = {
        {"timestamp,symbol\n", "missing-column", 1, 0},
        {"timestamp,symbol,rate\n", "empty-file", 0, 0},
        {"", "empty-file", 0, 0},
        {"timestamp,symbol,rate\n2024-01-01,A,0.1\n2024-01-01,A,0.2\n", "duplicate-timestamp", 3, 1},
        {"timestamp,symbol,rate\n2024-01-01,A,1.5\n", "funding-rate-out-of-range", 2, 3},
        {"timestamp,symbol,rate\n2024-01-01,A,\n", "not-a-number", 2, 3},
        {"timestamp,symbol,rate\nyesterday,A,0.1\n", "bad-timestamp", 2, 1},
        {"timestamp,symbol,rate\n2024-01-01,\" A\",0.1\n", "bad-symbol", 2, 2},
        {"timestamp,symbol,rate\n2024-01-01,A\n", "wrong-field-count", 2, 3},
        {"timestamp,symbol,rate,timestamp\n", "duplicate-column", 1, 4},
        {"timestamp,symbol,rate\n2024-01-01,\"A\x01\",0.1\n", "bad-symbol", 2, 2},
        // Note [Funding history]: settlements of a symbol an hour apart, less a minute.
        {"timestamp,symbol,rate\n2024-01-01T00:00Z,A,0.1\n2024-01-01T00:58:59.999Z,A,0.1\n", "settlements-too-close", 3, 1},
        // Unsorted: at the later row of the file, whichever comes first in time.
        {"timestamp,symbol,rate\n2024-01-01T08:30Z,A,0.1\n2024-01-01T08:00Z,A,0.1\n", "settlements-too-close", 3, 1},
        {"symbol,rate,timestamp\nA,0.1,2024-01-01T08:00Z\nA,0.1,2024-01-01T08:00:00.001Z\n", "settlements-too-close", 3, 3},
    };
    for (const Case& c : cases) {
        CAPTURE(c.text);
        try {
            load_funding_history(dir.write("bad.csv", c.text), std::nullopt);
            FAIL("accepted");
        } catch (const DataError& e) {
            CHECK(e.rule() == c.rule);
            CHECK(e.line() == c.line);
            CHECK(e.column() == c.column);
        }
    }
}

}  // namespace
}  // namespace btforge
