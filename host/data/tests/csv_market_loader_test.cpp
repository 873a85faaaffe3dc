#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/data/csv_market_loader.h"
#include "host/data/csv_rows.h"
#include "host/data/data_error.h"
#include "host/data/market_limits.h"
#include "host/data/tests/market_compare.h"
#include "host/io/tests/temp_dir.h"

using btforge::DataError;
using btforge::load_market_csv;
using btforge::Market;
using btforge::MarketLoadOptions;
using btforge::testing::TempDir;

namespace {

const std::string kHeader = "timestamp,symbol,open,high,low,close,volume\n";

// Most tables here use small epoch milliseconds (1000, 2000, ...): dates in
// 1970, whose unit detection refuses (Note [Epoch units]), so they name it.
MarketLoadOptions epoch_ms() {
    MarketLoadOptions options;
    options.timestamp_unit = btforge::EpochUnit::Milliseconds;
    return options;
}

// Loads `content` expecting a DataError; checks rule, line and column, and
// that the loader left nothing behind next to the input.
DataError expect_error(const std::string& content, const std::string& rule, std::size_t line, std::size_t column,
                       MarketLoadOptions options = epoch_ms()) {
    TempDir dir;
    const auto csv = dir.write("m.csv", content);
    const std::size_t entries = dir.entry_count();
    try {
        (void)load_market_csv(csv, options);
    } catch (const DataError& e) {
        INFO(e.what());
        CHECK(e.rule() == rule);
        CHECK(e.line() == line);
        CHECK(e.column() == column);
        CHECK(e.file() == csv.string());
        CHECK(std::string(e.what()).rfind(csv.string() + ":", 0) == 0);
        CHECK(dir.entry_count() == entries);
        return e;
    }
    FAIL("no DataError for rule " << rule);
    return DataError("", 0, 0, "", "");
}

Market load_text(const std::string& content, MarketLoadOptions options = epoch_ms()) {
    TempDir dir;
    return load_market_csv(dir.write("m.csv", content), options);
}

}  // namespace

TEST_CASE("bad input: unsorted timestamps within a symbol") {
    const auto e = expect_error(kHeader + "2000,BTC,10,11,9,10,1\n1000,BTC,10,11,9,10,1\n", "unsorted-timestamps", 3, 1);
    CHECK(e.message().find("line 2") != std::string::npos);
}

TEST_CASE("bad input: duplicate timestamp within a symbol") {
    expect_error(kHeader + "1000,BTC,10,11,9,10,1\n1000,ETH,1,1,1,1,1\n1000,BTC,10,11,9,10,1\n", "duplicate-timestamp",
                 4, 1);
}

TEST_CASE("bad input: duplicate detected across ISO and epoch spellings") {
    expect_error(kHeader + "2024-01-01,BTC,10,11,9,10,1\n1704067200000,BTC,10,11,9,10,1\n", "duplicate-timestamp", 3, 1);
}

TEST_CASE("bad input: high below low") {
    expect_error(kHeader + "1000,BTC,10,11,9,10,1\n2000,BTC,9.5,9,9.5,9.5,1\n", "high-below-low", 3, 4);
}

TEST_CASE("bad input: high below open or close") {
    expect_error(kHeader + "1000,BTC,10,10.5,9,11,1\n", "high-below-open-close", 2, 4);
}

TEST_CASE("bad input: low above open or close") {
    expect_error(kHeader + "1000,BTC,10,11,10.5,10.8,1\n", "low-above-open-close", 2, 5);
}

TEST_CASE("bad input: non-positive prices") {
    expect_error(kHeader + "1000,BTC,10,11,9,0,1\n", "non-positive-price", 2, 6);
    expect_error(kHeader + "1000,BTC,-1,11,9,10,1\n", "non-positive-price", 2, 3);
}

TEST_CASE("bad input: NaN, infinities and text where a number belongs") {
    expect_error(kHeader + "1000,BTC,10,nan,9,10,1\n", "not-a-number", 2, 4);
    expect_error(kHeader + "1000,BTC,10,11,9,10,inf\n", "not-a-number", 2, 7);
    expect_error(kHeader + "1000,BTC,10,11,9,10,1\n2000,BTC,10,11,9,1O,1\n", "not-a-number", 3, 6);
    expect_error(kHeader + "1000,BTC,,11,9,10,1\n", "not-a-number", 2, 3);
    expect_error(kHeader + "1000,BTC,10,11,9,10,1e999\n", "not-a-number", 2, 7);
    expect_error("timestamp,symbol,open,high,low,close,volume,funding_rate\n1000,BTC,10,11,9,10,1,NaN\n",
                 "not-a-number", 2, 8);
}

TEST_CASE("bad input: negative volume") {
    expect_error(kHeader + "1000,BTC,10,11,9,10,-0.5\n", "negative-volume", 2, 7);
}

TEST_CASE("bad input: bad timestamps") {
    expect_error(kHeader + "2024-02-30,BTC,10,11,9,10,1\n", "bad-timestamp", 2, 1);
    expect_error(kHeader + "1000,BTC,10,11,9,10,1\n01/02/2024,BTC,10,11,9,10,1\n", "bad-timestamp", 3, 1);
    expect_error("symbol,timestamp,open,high,low,close,volume\nBTC,12.5,10,11,9,10,1\n", "bad-timestamp", 2, 2);
}

TEST_CASE("bad input: wrong field count") {
    expect_error(kHeader + "1000,BTC,10,11,9,10,1\n2000,BTC,10,11,9,10\n", "wrong-field-count", 3, 7);
    expect_error(kHeader + "1000,BTC,10,11,9,10,1,7\n", "wrong-field-count", 2, 8);
}

TEST_CASE("bad input: missing and duplicate columns") {
    const auto e = expect_error("timestamp,symbol,open,high,low,volume\n1000,BTC,10,11,9,1\n", "missing-column", 1, 0);
    CHECK(e.message().find("\"close\"") != std::string::npos);
    expect_error("1000,BTC,10,11,9,10,1\n", "missing-column", 1, 0);
    expect_error("timestamp,symbol,open,high,low,close,volume,Close\n", "duplicate-column", 1, 8);
}

TEST_CASE("bad input: unknown symbols") {
    TempDir dir;
    MarketLoadOptions options = epoch_ms();
    options.instruments_file = dir.write("instruments.json", R"({"BTC": {"qty_step": 0.001}})");
    const auto e =
        expect_error(kHeader + "1000,BTC,10,11,9,10,1\n1000,ETH,1,1,1,1,1\n", "unknown-symbol", 3, 2, options);
    CHECK(e.message().find("ETH") != std::string::npos);

    MarketLoadOptions wanted = epoch_ms();
    wanted.symbols = {"BTC", "SOL"};
    const auto e2 = expect_error(kHeader + "1000,BTC,10,11,9,10,1\n1000,ETH,1,1,1,1,1\n", "unknown-symbol", 0, 0, wanted);
    CHECK(e2.message().find("SOL") != std::string::npos);
}

TEST_CASE("bad input: empty files") {
    expect_error("", "empty-file", 0, 0);
    expect_error("\xEF\xBB\xBF\n\n", "empty-file", 0, 0);
    expect_error(kHeader, "empty-file", 0, 0);
}

TEST_CASE("bad input: malformed quoting") {
    expect_error(kHeader + "1000,\"BT\"C,10,11,9,10,1\n", "bad-quoting", 2, 2);
    expect_error(kHeader + "1000,BTC,10,11,9,10,1\n2000,\"BTC,10,11,9,10,1\n", "unterminated-quote", 3, 2);
}

TEST_CASE("bad input: symbols") {
    expect_error(kHeader + "1000,,10,11,9,10,1\n", "bad-symbol", 2, 2);
    expect_error(kHeader + "1000,\"BTC \",10,11,9,10,1\n", "bad-symbol", 2, 2);
}

TEST_CASE("bad input: more symbols than the kernels hold") {
    std::string csv = kHeader;
    for (int s = 0; s <= btforge::kMaxSymbols; ++s) csv += "1000,S" + std::to_string(s) + ",1,1,1,1,1\n";
    expect_error(csv, "too-many-symbols", static_cast<std::size_t>(btforge::kMaxSymbols) + 2, 2);
    // Selecting fewer makes the same file loadable.
    MarketLoadOptions options = epoch_ms();
    options.symbols = {"S3", "S1"};
    const Market m = load_text(csv, options);
    CHECK(m.symbols == std::vector<std::string>{"S1", "S3"});
}

TEST_CASE("bad input: a missing file") {
    TempDir dir;
    try {
        (void)load_market_csv(dir.path() / "absent.csv");
        FAIL("expected an error");
    } catch (const DataError& e) {
        CHECK(e.rule() == "cannot-read");
    }
}

TEST_CASE("line numbers count physical lines: multi-line quoted fields and CRLF") {
    const std::string csv = "timestamp,symbol,open,high,low,close,volume,note\r\n"
                            "1000,BTC,10,11,9,10,1,\"two\r\nlines\"\r\n"
                            "\r\n"
                            "2000,BTC,10,11,9,10,-1,x\r\n";
    expect_error(csv, "negative-volume", 5, 7);
}

TEST_CASE("line numbers with CR-only line ends") {
    expect_error("timestamp,symbol,open,high,low,close,volume\r1000,A,1,1,1,1,1\r2000,A,1,1,1,1,1\r2000,A,1,1,1,1,1\r",
                 "duplicate-timestamp", 4, 1);
}

TEST_CASE("a directory or a device is not a market file (Note [Reading input files])") {
    TempDir dir;
    CHECK_THROWS_WITH_AS(load_market_csv(dir.path()),
                         (dir.path().string() + ": not-a-regular-file: is a directory, not a market file").c_str(),
                         DataError);
    CHECK_THROWS_WITH_AS(load_market_csv("/dev/zero"),
                         "/dev/zero: not-a-regular-file: is a character device, not a market file", DataError);
}

TEST_CASE("the text in memory (the Python package's) and the file read in pieces give one market and one error") {
    // Note [Long CSV contract], Note [CSV rows].
    TempDir dir;
    const std::string text = kHeader + "1000,BTC,10,11,9,10,1\r\n2000,ETH,5,6,4,5,2\n3000,BTC,10,12,9,11,1\n";
    const Market from_file = load_market_csv(dir.write("m.csv", text), epoch_ms());
    const Market in_memory =
        btforge::load_market_csv_text("frame", std::vector<char>(text.begin(), text.end()), epoch_ms());
    btforge::testing::check_same_market(from_file, in_memory);
    const std::string bad = kHeader + "1000,BTC,10,11,9,10,1\n" + std::string(btforge::kMaxCsvRowBytes + 1, 'x');
    try {
        (void)btforge::load_market_csv_text("frame", std::vector<char>(bad.begin(), bad.end()), epoch_ms());
        FAIL("no error");
    } catch (const DataError& e) {
        CHECK(e.file() == "frame");
        CHECK(e.rule() == "row-too-long");
        CHECK(e.line() == 3);
    }
    expect_error(bad, "row-too-long", 3, 0);
}

TEST_CASE("valid: BOM, CRLF, quoted fields, reordered and extra columns, case-insensitive header") {
    const std::string csv = "\xEF\xBB\xBF Symbol ,CLOSE,\"open\",High,low,Volume,extra,TimeStamp\r\n"
                            "\"BTC\",\"10.5\",10,11,9,\"1,000\",\"x,y\",2024-01-01T00:00:00Z\r\n"
                            "BTC, 10.25 ,10.5,10.75,10,2,\"q\"\"uote\",2024-01-01 01:00\r\n"
                            "\r\n\r\n";
    // "1,000" is one quoted field, but it is not a number.
    expect_error(csv, "not-a-number", 2, 6);

    const std::string ok = "\xEF\xBB\xBF Symbol ,CLOSE,\"open\",High,low,Volume,extra,TimeStamp\r\n"
                           "\"BTC\",\"10.5\",10,11,9,\"1000\",\"x,y\",2024-01-01T00:00:00Z\r\n"
                           "BTC, 10.25 ,10.5,10.75,10,2,\"q\"\"uote\",2024-01-01 01:00\r\n"
                           "\r\n\r\n";
    const Market m = load_text(ok);
    REQUIRE(m.n_symbols() == 1);
    REQUIRE(m.n_bars() == 2);
    CHECK(m.symbols[0] == "BTC");
    CHECK(m.timestamp_ms[0] == 1'704'067'200'000);
    CHECK(m.timestamp_ms[1] == 1'704'067'200'000 + 3'600'000);
    CHECK(m.open[0] == 10.0);
    CHECK(m.high[0] == 11.0);
    CHECK(m.low[0] == 9.0);
    CHECK(m.close[0] == 10.5);
    CHECK(m.volume[0] == 1000.0);
    CHECK(m.close[1] == 10.25);
    CHECK(m.funding_rate[1] == 0.0001);
}

TEST_CASE("valid: ISO dates and epoch milliseconds give the same market") {
    const Market iso = load_text(kHeader + "2024-01-01,A,1,2,0.5,1.5,10\n2024-01-02,A,1.5,2,1,2,10\n");
    const Market ms = load_text(kHeader + "1704067200000,A,1,2,0.5,1.5,10\n1704153600000,A,1.5,2,1,2,10\n");
    CHECK(iso.timestamp_ms == ms.timestamp_ms);
    CHECK(iso.close == ms.close);
    CHECK(iso.funding_events == ms.funding_events);
    CHECK(iso.funding_events[1] == 3);  // daily bars settle three 8h fundings
}

TEST_CASE("valid: no trailing newline, '+' signs, exponents") {
    const Market m = load_text(kHeader + "1000,A,+1e1,1.1E1,9,10,0");
    REQUIRE(m.n_bars() == 1);
    CHECK(m.open[0] == 10.0);
    CHECK(m.high[0] == 11.0);
    CHECK(m.volume[0] == 0.0);
}

TEST_CASE("valid: symbols in order of first appearance, interleaved rows, selection") {
    const std::string csv = kHeader +
                            "1000,ETH,2,2,2,2,1\n"
                            "1000,BTC,10,10,10,10,1\n"
                            "2000,BTC,10,10,10,10,1\n"
                            "3000,SOL,5,5,5,5,1\n"
                            "2000,ETH,2,2,2,2,1\n";
    const Market all = load_text(csv);
    CHECK(all.symbols == std::vector<std::string>{"ETH", "BTC", "SOL"});
    CHECK(all.timestamp_ms == std::vector<std::int64_t>{1000, 2000, 3000});

    MarketLoadOptions options = epoch_ms();
    options.symbols = {"SOL", "BTC"};
    const Market some = load_text(csv, options);
    CHECK(some.symbols == std::vector<std::string>{"BTC", "SOL"});
    CHECK(some.timestamp_ms == std::vector<std::int64_t>{1000, 2000, 3000});
}

TEST_CASE("valid: funding_rate column, empty cells take the default") {
    MarketLoadOptions options = epoch_ms();
    options.default_funding_rate = 0.0003;
    const Market m = load_text("timestamp,symbol,open,high,low,close,volume,funding_rate\n"
                               "0,A,1,1,1,1,1,-0.0002\n"
                               "28800000,A,1,1,1,1,1,\n",
                               options);
    CHECK(m.funding_rate[0] == -0.0002);
    CHECK(m.funding_rate[1] == 0.0003);
    CHECK(m.funding_events[1] == 1);
}

TEST_CASE("valid: instruments file applies per symbol, defaults elsewhere") {
    TempDir dir;
    MarketLoadOptions options = epoch_ms();
    options.instruments_file =
        dir.write("instruments.json", R"({"BTC": {"qty_step": 0.001, "min_qty": 0.002, "price_tick": 0.1}, "ETH": {}})");
    const Market m =
        load_market_csv(dir.write("m.csv", kHeader + "1000,BTC,10,11,9,10,1\n1000,ETH,1,1,1,1,1\n"), options);
    CHECK(m.instruments[0].min_qty == 0.002);
    CHECK(m.instruments[0].price_tick == 0.1);
    CHECK(m.instruments[1].qty_step == btforge::Instrument{}.qty_step);
}

TEST_CASE("alignment: two symbols with a missing bar, and a late symbol") {
    MarketLoadOptions options = epoch_ms();
    options.funding_interval_ms = 3'600'000;
    const std::string csv = kHeader +
                            "0,A,1,1,1,1,5\n"
                            "0,B,10,12,8,11,5\n"
                            "3600000,A,1,1,1,1,5\n"
                            "3600000,C,100,100,100,100,5\n"
                            "7200000,A,1,1,1,1,5\n"
                            "7200000,B,11,13,10,12,5\n"
                            "7200000,C,100,100,100,100,5\n";
    const Market m = load_text(csv, options);
    REQUIRE(m.n_bars() == 3);
    const int b = m.symbol_index("B");
    const int c = m.symbol_index("C");
    CHECK(m.own_bars[static_cast<std::size_t>(b)] == std::vector<int>{0, 2});
    CHECK(m.own_bars[static_cast<std::size_t>(c)] == std::vector<int>{1, 2});
    const std::size_t gap = m.index(b, 1);
    CHECK(m.tradable[gap] == 0);
    CHECK(m.open[gap] == 11.0);
    CHECK(m.high[gap] == 11.0);
    CHECK(m.low[gap] == 11.0);
    CHECK(m.close[gap] == 11.0);
    CHECK(m.volume[gap] == 0.0);
    CHECK(m.funding_events[gap] == 0);
    CHECK(m.funding_events[m.index(b, 2)] == 2);  // (0h, 2h] holds both hourly fundings
    CHECK(std::isnan(m.close[m.index(c, 0)]));
    CHECK(m.tradable[m.index(c, 0)] == 0);
    CHECK(m.funding_events[m.index(c, 1)] == 0);  // a symbol's first bar settles nothing
    CHECK(m.funding_events[m.index(c, 2)] == 1);
}

// --- Note [Epoch units] -----------------------------------------------------

namespace {

using btforge::CsvMarketFacts;
using btforge::EpochUnit;

constexpr std::int64_t k2024 = 1'704'067'200'000;  // 2024-01-01T00:00:00Z in ms

// Three hourly bars of BTC and two of ETH from 2024-01-01, timestamps written
// as `scale` units per millisecond (0 for seconds).
std::string hourly_file(const std::string& suffix) {
    std::string csv = kHeader;
    for (int h = 0; h < 3; ++h) {
        const std::string t = std::to_string(k2024 / 1000 + h * 3600) + suffix;
        csv += t + ",BTC,10,11,9,10,1\n";
        if (h < 2) csv += t + ",ETH,2,2,2,2,1\n";
    }
    return csv;
}

Market load_with_facts(const std::string& content, MarketLoadOptions options, CsvMarketFacts& facts) {
    TempDir dir;
    return load_market_csv(dir.write("m.csv", content), options, &facts);
}

}  // namespace

TEST_CASE("epoch units: s, ms, us and ns files are detected from their magnitudes") {
    const std::vector<std::int64_t> expected{k2024, k2024 + 3'600'000, k2024 + 7'200'000};
    const struct {
        const char* suffix;  // digits appended to epoch seconds
        EpochUnit unit;
    } cases[] = {
        {"", EpochUnit::Seconds},
        {"000", EpochUnit::Milliseconds},
        {"000000", EpochUnit::Microseconds},
        {"000000000", EpochUnit::Nanoseconds},
    };
    for (const auto& c : cases) {
        CAPTURE(c.suffix);
        CsvMarketFacts facts;
        const Market m = load_with_facts(hourly_file(c.suffix), MarketLoadOptions{}, facts);
        CHECK(m.timestamp_ms == expected);
        CHECK(m.funding_events[m.index(0, 2)] == 0);  // 01:00 -> 02:00 settles no 8h funding
        REQUIRE(facts.epoch_unit.has_value());
        CHECK(*facts.epoch_unit == c.unit);
        CHECK(facts.epoch_unit_detected);
    }
}

TEST_CASE("epoch units: the window's edges (1971-01-01 included, 2100-01-01 excluded)") {
    CHECK(load_text(kHeader + "31536000,A,1,1,1,1,1\n", {}).timestamp_ms[0] == 31'536'000'000);
    CHECK(load_text(kHeader + "4102444799,A,1,1,1,1,1\n", {}).timestamp_ms[0] == 4'102'444'799'000);
    CHECK(load_text(kHeader + "4102444799000000000,A,1,1,1,1,1\n", {}).timestamp_ms[0] == 4'102'444'799'000);
    expect_error(kHeader + "31535999,A,1,1,1,1,1\n", "ambiguous-timestamp-unit", 2, 1, {});
    expect_error(kHeader + "4102444800,A,1,1,1,1,1\n", "ambiguous-timestamp-unit", 2, 1, {});
    expect_error(kHeader + "4102444800000000000,A,1,1,1,1,1\n", "ambiguous-timestamp-unit", 2, 1, {});
}

TEST_CASE("epoch units: implausible or mixed integers are refused, naming --timestamp-unit") {
    const struct {
        std::string csv;
        std::size_t line;
        const char* says;  // part of the message
    } cases[] = {
        // 1970 in every unit: the style of the tables above.
        {kHeader + "1000,A,1,1,1,1,1\n2000,A,1,1,1,1,1\n", 2, "epoch timestamp 1000"},
        // 1e10: year 2286 as s, 1970-04-26 as ms; between two windows.
        {kHeader + "10000000000,A,1,1,1,1,1\n", 2, "none of s, ms, us, ns"},
        // Seconds, then milliseconds of a later hour.
        {kHeader + "1704067200,A,1,1,1,1,1\n1704070800000,A,1,1,1,1,1\n", 3,
         "range from 1704067200 to 1704070800000"},
        // Units mixed across symbols too.
        {kHeader + "1704067200000,A,1,1,1,1,1\n1704067200,B,1,1,1,1,1\n", 3, "only in s"},
        // A later integer that fits no unit (a typo) after a seconds file began.
        {kHeader + "1704067200,A,1,1,1,1,1\n5,A,1,1,1,1,1\n", 3, "in no unit"},
        // ISO rows take no part: the integer alone is judged.
        {kHeader + "2024-01-01,A,1,1,1,1,1\n1000,A,1,1,1,1,1\n", 3, "epoch timestamp 1000"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.csv);
        const DataError e = expect_error(c.csv, "ambiguous-timestamp-unit", c.line, 1, {});
        CHECK(e.message().find("--timestamp-unit") != std::string::npos);
        CHECK(e.message().find(c.says) != std::string::npos);
        CHECK(e.message().find("1971-01-01..2099-12-31") != std::string::npos);
    }
}

TEST_CASE("epoch units: a given unit is honoured and skips the window") {
    const struct {
        EpochUnit unit;
        const char* value;
        std::int64_t ms;
    } cases[] = {
        {EpochUnit::Seconds, "1000", 1'000'000},
        {EpochUnit::Milliseconds, "1000", 1000},
        {EpochUnit::Microseconds, "1000", 1},
        {EpochUnit::Nanoseconds, "-2000000", -2},
        {EpochUnit::Milliseconds, "1704067200", 1'704'067'200},  // auto would read seconds
        {EpochUnit::Seconds, "253402300799", 253'402'300'799'000},  // 9999-12-31T23:59:59Z
    };
    for (const auto& c : cases) {
        CAPTURE(c.value);
        MarketLoadOptions options;
        options.timestamp_unit = c.unit;
        CsvMarketFacts facts;
        const Market m = load_with_facts(kHeader + c.value + ",A,1,1,1,1,1\n", options, facts);
        CHECK(m.timestamp_ms[0] == c.ms);
        CHECK(facts.epoch_unit == c.unit);
        CHECK_FALSE(facts.epoch_unit_detected);
    }
}

TEST_CASE("epoch units: ISO rows and integers share a file; ISO alone has no unit") {
    CsvMarketFacts facts;
    const Market m = load_with_facts(kHeader + "2024-01-01T00:00Z,A,1,1,1,1,1\n1704070800,A,1,1,1,1,1\n", {}, facts);
    CHECK(m.timestamp_ms == std::vector<std::int64_t>{k2024, k2024 + 3'600'000});
    CHECK(facts.epoch_unit == EpochUnit::Seconds);
    // The same instant in ISO and in detected seconds is one timestamp.
    expect_error(kHeader + "2024-01-01,A,1,1,1,1,1\n1704067200,A,1,1,1,1,1\n", "duplicate-timestamp", 3, 1, {});

    CsvMarketFacts iso_facts;
    (void)load_with_facts(kHeader + "2024-01-01,A,1,1,1,1,1\n", {}, iso_facts);
    CHECK_FALSE(iso_facts.epoch_unit.has_value());
    CHECK_FALSE(iso_facts.epoch_unit_detected);
}

TEST_CASE("epoch units: sub-millisecond counts are refused, never rounded") {
    const struct {
        const char* value;
        std::optional<EpochUnit> unit;  // nullopt: detected
    } cases[] = {
        {"1704067200000001", std::nullopt},     // us
        {"1704067200000000500", std::nullopt},  // ns
        {"1704067200000999999", std::nullopt},  // ns; truncating would give ...000 ms, the bar before
        {"1500", EpochUnit::Microseconds},
        {"-1500", EpochUnit::Microseconds},
        {"999999", EpochUnit::Nanoseconds},
    };
    for (const auto& c : cases) {
        CAPTURE(c.value);
        MarketLoadOptions options;
        options.timestamp_unit = c.unit;
        // A whole-millisecond bar first, so the refused one is on line 3.
        const std::string first = c.unit ? "0" : std::string(c.value).size() == 16 ? "1704067199000000" : "1704067199000000000";
        expect_error(kHeader + first + ",A,1,1,1,1,1\n" + c.value + ",A,1,1,1,1,1\n", "sub-millisecond-timestamp", 3,
                     1, options);
    }
}

TEST_CASE("timestamps outside years 0000..9999 are refused, and s -> ms never overflows") {
    const struct {
        std::string value;
        std::optional<EpochUnit> unit;
    } cases[] = {
        {"9223372036854775807", EpochUnit::Seconds},  // x1000 overflows an int64
        {"-9223372036854775808", EpochUnit::Seconds},
        {"9223372036854776", EpochUnit::Seconds},     // the smallest whose x1000 overflows
        {"253402300800", EpochUnit::Seconds},         // 10000-01-01
        {"-62167219201", EpochUnit::Seconds},         // 1 s before 0000-01-01
        {"1704067200000", EpochUnit::Seconds},        // ms given as s: year 55970
        {"253402300800000", EpochUnit::Milliseconds},
        {"-62167219200001", EpochUnit::Milliseconds},
        {"9223372036854775807", EpochUnit::Milliseconds},
        {"9999-12-31T23:59-01:00", std::nullopt},     // ISO whose offset crosses into 10000
        {"0000-01-01T00:00+00:01", std::nullopt},
    };
    for (const auto& c : cases) {
        CAPTURE(c.value);
        MarketLoadOptions options;
        options.timestamp_unit = c.unit;
        const DataError e =
            expect_error(kHeader + "2024-01-01,A,1,1,1,1,1\n" + c.value + ",B,1,1,1,1,1\n", "timestamp-out-of-range",
                         3, 1, options);
        CHECK(e.message().find("0000..9999") != std::string::npos);
    }
    MarketLoadOptions seconds;
    seconds.timestamp_unit = EpochUnit::Seconds;
    CHECK(load_text(kHeader + "-62167219200,A,1,1,1,1,1\n", seconds).timestamp_ms[0] == btforge::kMinTimestampMs);
}

TEST_CASE("funding times that do not fit one bar are refused at their line") {
    MarketLoadOptions options;
    options.funding_interval_ms = btforge::kMinFundingIntervalMs;
    // 9998 years of minutes: 5.3e9 funding times, beyond the int32 count.
    expect_error(kHeader + "0001-01-01,A,1,1,1,1,1\n2024-01-01,B,1,1,1,1,1\n9999-01-01,A,1,1,1,1,1\n",
                 "too-many-funding-times", 4, 1, options);
    // With the default 8 h interval the same file loads.
    CHECK(load_text(kHeader + "0001-01-01,A,1,1,1,1,1\n9999-01-01,A,1,1,1,1,1\n", {}).n_bars() == 2);
}

// --- Note [Market value limits] --------------------------------------------

TEST_CASE("numbers outside the market value limits are refused with their position") {
    const std::string header = "timestamp,symbol,open,high,low,close,volume,funding_rate\n";
    const struct {
        const char* row;  // fields after the timestamp
        const char* rule;
        std::size_t column;
    } cases[] = {
        {"A,1e300,1e300,1e300,1e300,1,0", "price-out-of-range", 3},
        {"A,10,1.7976931348623157e308,9,10,1,0", "price-out-of-range", 4},
        {"A,10,11,1e-13,10,1,0", "price-out-of-range", 5},
        {"A,10,11,9,1.000001e12,1,0", "price-out-of-range", 6},
        {"A,1e-300,11,9,10,1,0", "price-out-of-range", 3},
        {"A,-0,11,9,10,1,0", "non-positive-price", 3},
        {"A,10,11,9,10,1.0000001e24,0", "volume-out-of-range", 7},
        {"A,10,11,9,10,1e308,0", "volume-out-of-range", 7},
        {"A,10,11,9,10,-1e-300,0", "negative-volume", 7},
        {"A,10,11,9,10,1,1e308", "funding-rate-out-of-range", 8},
        {"A,10,11,9,10,1,-1.0000001", "funding-rate-out-of-range", 8},
        {"A,10,11,9,10,1,2", "funding-rate-out-of-range", 8},
        {"A,10,11,9,10,1,inf", "not-a-number", 8},
        {"A,10,11,9,10,1,-inf", "not-a-number", 8},
    };
    for (const auto& c : cases) {
        CAPTURE(c.row);
        expect_error(header + "2024-01-01," + c.row + "\n", c.rule, 2, c.column);
    }
}

TEST_CASE("the market value limits themselves are accepted") {
    const Market m = load_text("timestamp,symbol,open,high,low,close,volume,funding_rate\n"
                               "2024-01-01,A,1e-12,1e12,1e-12,1e12,1e24,1\n"
                               "2024-01-02,A,1,1,1,1,0,-1\n");
    CHECK(m.open[0] == 1e-12);
    CHECK(m.high[0] == 1e12);
    CHECK(m.volume[0] == 1e24);
    CHECK(m.funding_rate[0] == 1.0);
    CHECK(m.funding_rate[1] == -1.0);
}

TEST_CASE("load options outside the limits are programming errors") {
    const std::string csv = kHeader + "2024-01-01,A,1,1,1,1,1\n";
    for (const double rate : {1.5, -2.0, 1e308, std::nan(""), HUGE_VAL}) {
        CAPTURE(rate);
        MarketLoadOptions options;
        options.default_funding_rate = rate;
        CHECK_THROWS_AS(load_text(csv, options), std::invalid_argument);
    }
    for (const std::int64_t ms : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{59'999},
                                  btforge::kMaxFundingIntervalMs + 1}) {
        CAPTURE(ms);
        MarketLoadOptions options;
        options.funding_interval_ms = ms;
        CHECK_THROWS_AS(load_text(csv, options), std::invalid_argument);
    }
}
