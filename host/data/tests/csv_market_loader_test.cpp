#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "host/data/csv_market_loader.h"
#include "host/data/data_error.h"
#include "host/data/tests/temp_dir.h"

using btforge::DataError;
using btforge::load_market_csv;
using btforge::Market;
using btforge::MarketLoadOptions;
using btforge::testing::TempDir;

namespace {

const std::string kHeader = "timestamp,symbol,open,high,low,close,volume\n";

// Loads `content` expecting a DataError; checks rule, line and column, and
// that the loader left nothing behind next to the input.
DataError expect_error(const std::string& content, const std::string& rule, std::size_t line, std::size_t column,
                       MarketLoadOptions options = {}) {
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

Market load_text(const std::string& content, MarketLoadOptions options = {}) {
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
    MarketLoadOptions options;
    options.instruments_file = dir.write("instruments.json", R"({"BTC": {"qty_step": 0.001}})");
    const auto e =
        expect_error(kHeader + "1000,BTC,10,11,9,10,1\n1000,ETH,1,1,1,1,1\n", "unknown-symbol", 3, 2, options);
    CHECK(e.message().find("ETH") != std::string::npos);

    MarketLoadOptions wanted;
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
    MarketLoadOptions options;
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

TEST_CASE("a directory is not a market file") {
    TempDir dir;
    CHECK_THROWS_WITH_AS(load_market_csv(dir.path()), doctest::Contains("cannot-read"), DataError);
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

    MarketLoadOptions options;
    options.symbols = {"SOL", "BTC"};
    const Market some = load_text(csv, options);
    CHECK(some.symbols == std::vector<std::string>{"BTC", "SOL"});
    CHECK(some.timestamp_ms == std::vector<std::int64_t>{1000, 2000, 3000});
}

TEST_CASE("valid: funding_rate column, empty cells take the default") {
    MarketLoadOptions options;
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
    MarketLoadOptions options;
    options.instruments_file =
        dir.write("instruments.json", R"({"BTC": {"qty_step": 0.001, "min_qty": 0.002, "price_tick": 0.1}, "ETH": {}})");
    const Market m =
        load_market_csv(dir.write("m.csv", kHeader + "1000,BTC,10,11,9,10,1\n1000,ETH,1,1,1,1,1\n"), options);
    CHECK(m.instruments[0].min_qty == 0.002);
    CHECK(m.instruments[0].price_tick == 0.1);
    CHECK(m.instruments[1].qty_step == btforge::Instrument{}.qty_step);
}

TEST_CASE("alignment: two symbols with a missing bar, and a late symbol") {
    MarketLoadOptions options;
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
