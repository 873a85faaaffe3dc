// Note [Market import]: bar lengths, symbols from file names, the gap
// report, resampling and what an import refuses, as tables of edge cases.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "host/data/data_error.h"
#include "host/data/market_import.h"
#include "host/io/tests/temp_dir.h"

namespace btforge {
namespace {

Bar bar_at(std::int64_t t, double price, double volume = 1.0) {
    return Bar{t, price, price + 1.0, price - 1.0, price, volume, 0.0};
}

TEST_CASE("bar lengths: N followed by s, m, h or d") {
    CHECK(parse_bar_length("1m") == 60'000);
    CHECK(parse_bar_length("15m") == 900'000);
    CHECK(parse_bar_length("4h") == 14'400'000);
    CHECK(parse_bar_length("1d") == 86'400'000);
    CHECK(parse_bar_length("30s") == 30'000);
    CHECK(parse_bar_length("7d") == kMaxBarMs);
    CHECK(parse_bar_length("604800s") == kMaxBarMs);
    // At most a week: --bar 9999999d dated its one bar 1970.
    for (const char* bad : {"", "m", "0m", "1w", "1.5h", "-1h", "h1", "99999999999h", "8d", "169h", "604801s",
                            "9999999d"}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_bar_length(bad).has_value());
    }
    CHECK(describe_bar_length(3'600'000) == "1h");
    CHECK(describe_bar_length(90'000) == "90s");
}

TEST_CASE("the gap report: the most common step, and the longer ones") {
    const std::int64_t m = 60'000;
    const std::vector<Bar> bars = {bar_at(0, 1), bar_at(m, 1), bar_at(2 * m, 1), bar_at(5 * m, 1), bar_at(6 * m, 1),
                                   bar_at(8 * m, 1)};
    const SymbolGaps g = find_gaps("X", bars);
    CHECK(g.interval_ms == m);
    CHECK(g.gaps == 2);
    CHECK(g.missing_bars == 2 + 1);
    CHECK(g.largest_gap_ms == 3 * m);
    CHECK(g.largest_gap_after_ms == 2 * m);
    CHECK(find_gaps("X", std::vector<Bar>{bar_at(0, 1)}).interval_ms == 0);
}

TEST_CASE("resampling: buckets aligned to the epoch, negative times included") {
    const std::int64_t m = 60'000;
    const std::vector<Bar> bars = {bar_at(-2 * m, 10, 1), bar_at(-m, 12, 2), bar_at(0, 11, 3), bar_at(4 * m, 9, 4),
                                   bar_at(5 * m, 20, 5)};
    const std::vector<Bar> out = resample_bars(bars, 5 * m);
    REQUIRE(out.size() == 3);
    CHECK(out[0].timestamp_ms == -5 * m);  // floor, not truncation toward zero
    CHECK((out[0].open == 10 && out[0].close == 12 && out[0].high == 13 && out[0].low == 9 && out[0].volume == 3));
    CHECK(out[1].timestamp_ms == 0);
    CHECK((out[1].open == 11 && out[1].close == 9 && out[1].high == 12 && out[1].low == 8 && out[1].volume == 7));
    CHECK(out[2].timestamp_ms == 5 * m);
}

TEST_CASE("resampling with an offset: bars open at the offset plus whole bars") {
    const std::int64_t m = 60'000;
    const std::vector<Bar> bars = {bar_at(-40 * m, 10), bar_at(20 * m, 12), bar_at(30 * m, 11), bar_at(89 * m, 9)};
    const std::vector<Bar> out = resample_bars(bars, 60 * m, 30 * m);
    REQUIRE(out.size() == 3);
    CHECK(out[0].timestamp_ms == -90 * m);
    CHECK(out[1].timestamp_ms == -30 * m);
    CHECK((out[1].open == 12 && out[1].close == 12));
    CHECK(out[2].timestamp_ms == 30 * m);
    CHECK((out[2].open == 11 && out[2].close == 9));
}

TEST_CASE("the symbol of a file name: everything before its -INTERVAL-DATE suffix") {
    const std::pair<const char*, const char*> good[] = {
        {"BTCUSDT-1m-2024-01.csv", "BTCUSDT"},
        {"BTCUSDT-fundingRate-2024-01.csv", "BTCUSDT"},
        {"BTC.P-1h.csv", "BTC.P"},  // was "BTC": cut at the first '.'
        {"BTC.P-1h", "BTC.P"},
        {"dir/BTC.P-1h-2024-01-01.CSV", "BTC.P"},
        {"BTC-USDT-SWAP-1h-2024-01.csv", "BTC-USDT-SWAP"},
        {"BTCUSD_PERP-1d-2024-01.csv", "BTCUSD_PERP"},
        {"1000PEPEUSDT-15m-2024-01.csv", "1000PEPEUSDT"},
        {"BTCUSDT-1mo-2024.csv", "BTCUSDT"},
        {"BTCUSDT-1w.csv", "BTCUSDT"},
        {"ETHUSDT-2024-01.csv", "ETHUSDT"},
        {"1M-1h-2024-01.csv", "1M"},
    };
    for (const auto& [name, symbol] : good) {
        CAPTURE(name);
        CHECK(symbol_of_file_name(name) == symbol);
    }
    const std::pair<const char*, const char*> bad[] = {
        {"BTCUSDT.csv", "no-symbol"},
        {"solana_hourly.csv", "no-symbol"},
        {"BTCUSDT-hourly.csv", "no-symbol"},
        {"-1h.csv", "no-symbol"},
        {"BTCUSDT-1h-x.csv", "no-symbol"},
        {"BTC-1h-ETH-1h.csv", "ambiguous-symbol"},
        {"BTC-1d-1h-2024.csv", "ambiguous-symbol"},
        {" BTC-1h.csv", "bad-symbol"},
        {"BTC\x01-1h.csv", "bad-symbol"},
    };
    for (const auto& [name, rule] : bad) {
        CAPTURE(name);
        try {
            symbol_of_file_name(name);
            FAIL("accepted");
        } catch (const DataError& e) {
            CHECK(e.rule() == rule);
            CHECK(e.file() == name);
            CHECK(std::string(e.what()).find("--symbol") != std::string::npos);
        }
    }
}

TEST_CASE("--columns: NAME=COLUMN pairs") {
    CHECK(parse_column_mapping("timestamp=date,symbol=ticker") ==
          std::vector<std::pair<std::string, std::string>>{{"timestamp", "date"}, {"symbol", "ticker"}});
    for (const char* bad : {"", "timestamp", "=date", "timestamp=", "a=b,,c=d", "a=b,"}) {
        CAPTURE(bad);
        CHECK_THROWS_AS(parse_column_mapping(bad), std::invalid_argument);
    }
}

constexpr std::int64_t kM = 60'000;
constexpr std::int64_t kH = 3'600'000;
constexpr std::int64_t kT0 = 1'704'067'200'000;  // 2024-01-01T00:00Z

// Binance kline rows opening at `first` every `step`.
std::string klines(std::int64_t first, std::int64_t step, int count) {
    std::string text;
    for (int k = 0; k < count; ++k) {
        const std::int64_t t = first + k * step;
        text += std::to_string(t) + ",100,101,99,100.5,2," + std::to_string(t + step - 1) + ",0,0,0,0,0\n";
    }
    return text;
}

ImportedBars import_klines(std::vector<std::filesystem::path> files, std::int64_t bar_ms = 0,
                           std::int64_t offset_ms = 0) {
    ImportOptions options;
    options.bar_ms = bar_ms;
    options.bar_offset_ms = offset_ms;
    return import_bars(files, options);
}

// The DataError of `run`, or a failed check.
template <typename F>
DataError refusal(F run) {
    try {
        run();
    } catch (const DataError& e) {
        return e;
    }
    FAIL("accepted");
    return DataError("", 0, 0, "", "");
}

TEST_CASE("bars off the --bar boundaries are refused at their line, or resampled on their own with --bar-offset") {
    testing::TempDir dir;
    const auto half_past = dir.write("BTCUSDT-1h-2024-01.csv", klines(kT0 + 30 * kM, kH, 9));
    // Was: five bars shifted 30 minutes earlier without a word.
    DataError e = refusal([&] { import_klines({half_past}, kH); });
    CHECK(e.rule() == "bar-off-boundary");
    CHECK(e.line() == 1);
    CHECK(e.file() == half_past.string());
    CHECK(e.message().find("give --bar-offset 30m") != std::string::npos);
    CHECK(refusal([&] { import_klines({half_past}, 4 * kH); }).rule() == "bar-off-boundary");
    // On their own boundaries: the same bars, and 4h bars opening at :30.
    ImportedBars same = import_klines({half_past}, kH, 30 * kM);
    REQUIRE(same.symbols[0].bars.size() == 9);
    CHECK(same.symbols[0].bars[0].timestamp_ms == kT0 + 30 * kM);
    ImportedBars four = import_klines({half_past}, 4 * kH, 30 * kM);
    REQUIRE(four.symbols[0].bars.size() == 3);
    CHECK(four.symbols[0].bars[1].timestamp_ms == kT0 + 4 * kH + 30 * kM);
    CHECK(four.symbols[0].bars[1].volume == 8);
    // Without --bar nothing moves, and nothing is refused.
    CHECK(import_klines({half_past}).symbols[0].bars[0].timestamp_ms == kT0 + 30 * kM);
    // Bars on the hour with an offset they do not fit; the line of the first off bar.
    const auto on_hour = dir.write("ETHUSDT-1h-2024-01.csv", klines(kT0, kH, 3) + klines(kT0 + 3 * kH + kM, kH, 2));
    CHECK(refusal([&] { import_klines({on_hour}, kH, 30 * kM); }).message().find("leave out --bar-offset") !=
          std::string::npos);
    // 1h bars off their own grid from the fourth on.
    e = refusal([&] { import_klines({on_hour}, 2 * kH); });
    CHECK(e.rule() == "bar-off-boundary");
    CHECK(e.line() == 4);
    CHECK(e.message().find("1m off the boundaries of its first") != std::string::npos);
    // Sparse bars (missing minutes) are still 1m bars: resampled as such.
    std::string sparse_rows;
    for (int minute : {0, 1, 2, 4, 5, 8, 9, 10, 14, 17}) sparse_rows += klines(kT0 + minute * kM, kM, 1);
    const auto sparse = dir.write("SOLUSDT-1m-2024-01.csv", sparse_rows);
    ImportedBars resampled = import_klines({sparse}, 5 * kM);
    CHECK(resampled.symbols[0].bars.size() == 4);
    CHECK(resampled.gaps[0].interval_ms == kM);
    // One bar cannot tell its length: it must open on a --bar boundary.
    const auto one = dir.write("XRPUSDT-1h-2024-01.csv", klines(kT0 + 30 * kM, kH, 1));
    CHECK(refusal([&] { import_klines({one}, kH); }).rule() == "bar-off-boundary");
    CHECK(import_klines({one}, kH, 30 * kM).symbols[0].bars.size() == 1);
    // A resampled bar opening before the year 0000.
    const auto ancient = dir.write("OLD-1d.csv", "-62167219200000,1,1,1,1,1,0,0,0,0,0,0\n"
                                                 "-62167132800000,1,1,1,1,1,0,0,0,0,0,0\n");
    ImportOptions options;
    options.timestamp_unit = EpochUnit::Milliseconds;
    options.bar_ms = 7 * 86'400'000;
    CHECK(refusal([&] { import_bars(std::vector<std::filesystem::path>{ancient}, options); }).rule() ==
          "timestamp-out-of-range");
    // Volumes within the market's limit that sum above it in one resampled bar.
    const auto heavy = dir.write("HEAVY-1m.csv", "1704067200000,1,1,1,1,1e24,0,0,0,0,0,0\n"
                                                 "1704067260000,1,1,1,1,1e24,0,0,0,0,0,0\n");
    CHECK(import_klines({heavy}).symbols[0].bars.size() == 2);
    e = refusal([&] { import_klines({heavy}, 5 * kM); });
    CHECK(e.rule() == "volume-out-of-range");
    CHECK(e.line() == 2);
}

TEST_CASE("files of different bar lengths are refused naming both, unless --bar makes symbols one length") {
    testing::TempDir dir;
    const auto minutes = dir.write("BTCUSDT-1m-2024-02.csv", klines(kT0 + 40 * 24 * kH, kM, 5));
    const auto hours = dir.write("BTCUSDT-1h-2024-01.csv", klines(kT0, kH, 5));
    // Was: merged into one series of mixed bars.
    DataError e = refusal([&] { import_klines({hours, minutes}); });
    CHECK(e.rule() == "mixed-intervals");
    CHECK(e.file() == minutes.string());
    CHECK(e.line() == 1);
    CHECK(e.message().find(hours.string()) != std::string::npos);
    CHECK(e.message().find(" 1h") != std::string::npos);
    CHECK(e.message().find(" 1m ") != std::string::npos);
    CHECK(refusal([&] { import_klines({hours, minutes}, kH); }).rule() == "mixed-intervals");
    // Two symbols of different lengths: refused as they are, taken once resampled to one.
    const auto eth = dir.write("ETHUSDT-1h-2024-01.csv", klines(kT0, kH, 5));
    e = refusal([&] { import_klines({minutes, eth}); });
    CHECK(e.rule() == "mixed-intervals");
    CHECK(e.file() == eth.string());
    CHECK(e.message().find("--bar") != std::string::npos);
    CHECK(import_klines({minutes, eth}, kH).symbols.size() == 2);
    // Daily dumps of one row each: their length is the merged one.
    const auto d1 = dir.write("ADAUSDT-1d-2024-01-01.csv", klines(kT0, 24 * kH, 1));
    const auto d2 = dir.write("ADAUSDT-1d-2024-01-02.csv", klines(kT0 + 24 * kH, 24 * kH, 1));
    CHECK(import_klines({d1, d2}, 7 * 24 * kH, 4 * 24 * kH).symbols[0].bars.size() == 1);
}

TEST_CASE("zero-byte and header-only files are refused, not imported as nothing") {
    testing::TempDir dir;
    const auto empty = dir.write("BTCUSDT-1m-2024-01.csv", "");
    const auto header = dir.write("ETHUSDT-1m-2024-01.csv",
                                  "open_time,open,high,low,close,volume,close_time,quote_volume,count,"
                                  "taker_buy_volume,taker_buy_quote_volume,ignore\n");
    const auto good = dir.write("SOLUSDT-1m-2024-01.csv", klines(kT0, kM, 3));
    for (const auto& file : {empty, header}) {
        CAPTURE(file);
        const DataError e = refusal([&] { import_klines({good, file}); });
        CHECK(e.rule() == "empty-file");
        CHECK(e.file() == file.string());
    }
    ImportOptions csv;
    csv.format = ImportFormat::MappedCsv;
    CHECK(refusal([&] { import_bars(std::vector<std::filesystem::path>{dir.write("A-1h.csv", "timestamp,open,high,"
                                                                                             "low,close,volume\n")},
                                    csv); })
              .rule() == "empty-file");
    ImportOptions funding;
    funding.format = ImportFormat::BinanceFunding;
    for (const char* text : {"", "calc_time,funding_interval_hours,last_funding_rate\n"}) {
        CAPTURE(text);
        CHECK(refusal([&] { import_funding(std::vector<std::filesystem::path>{dir.write("BTCUSDT-fundingRate-2024-01.csv", text)},
                                           funding); })
                  .rule() == "empty-file");
    }
}

TEST_CASE("csv: a symbol column is used when the file has one; btforge's own long CSV imports as it is") {
    testing::TempDir dir;
    const auto own = dir.write("m.csv",
                               "timestamp,symbol,open,high,low,close,volume,funding_rate\n"
                               "2024-01-01T00:00:00.000Z,AUSDT,1,2,0.5,1.5,10,0.0001\n"
                               "2024-01-01T00:00:00.000Z,BUSDT,3,4,2.5,3.5,20,\n"
                               "2024-01-01T01:00:00.000Z,AUSDT,1.5,2,1,1,11,0.0001\n");
    ImportOptions options;
    options.format = ImportFormat::MappedCsv;
    // Was: no-symbol "cannot tell the symbol from the file name ... give it with --symbol".
    const ImportedBars imported = import_bars(std::vector<std::filesystem::path>{own}, options);
    REQUIRE(imported.symbols.size() == 2);
    CHECK(imported.symbols[0].symbol == "AUSDT");
    CHECK(imported.symbols[0].bars.size() == 2);
    CHECK(imported.symbols[1].symbol == "BUSDT");
    REQUIRE(imported.notes.size() == 1);
    CHECK(imported.notes[0].find("funding_rate column is not imported") != std::string::npos);
    // --symbol beside a symbol column: which one? Refused, naming the column.
    options.symbol = "XUSDT";
    CHECK_THROWS_WITH_AS(import_bars(std::vector<std::filesystem::path>{own}, options),
                         doctest::Contains("has a symbol column"), std::invalid_argument);
    // No symbol column, no symbol in the name: the message names both ways.
    options.symbol.clear();
    const auto plain = dir.write("prices.csv", "timestamp,open,high,low,close,volume\n2024-01-01,1,1,1,1,1\n");
    const DataError e = refusal([&] { import_bars(std::vector<std::filesystem::path>{plain}, options); });
    CHECK(e.rule() == "no-symbol");
    CHECK(e.message().find("--columns symbol=COLUMN") != std::string::npos);
    CHECK(e.message().find("--symbol") != std::string::npos);
    // Symbols of a column under the market's rule for names.
    const auto spaced = dir.write("s.csv", "timestamp,symbol,open,high,low,close,volume\n2024-01-01,\" A\",1,1,1,1,1\n");
    const DataError bad = refusal([&] { import_bars(std::vector<std::filesystem::path>{spaced}, options); });
    CHECK(bad.rule() == "bad-symbol");
    CHECK(bad.line() == 2);
    CHECK(bad.column() == 2);
}

TEST_CASE("binance-funding: settlements closer than an hour are refused, as a funding file refuses them") {
    testing::TempDir dir;
    std::string text = "calc_time,funding_interval_hours,last_funding_rate\n";
    for (int k = 0; k < 3; ++k) text += std::to_string(kT0 + k * 8 * kH) + ",8,0.0001\n";
    text += std::to_string(kT0 + 16 * kH + 1000) + ",8,0.0002\n";
    const auto file = dir.write("BTCUSDT-fundingRate-2024-01.csv", text);
    ImportOptions options;
    options.format = ImportFormat::BinanceFunding;
    const DataError e = refusal([&] { import_funding(std::vector<std::filesystem::path>{file}, options); });
    CHECK(e.rule() == "settlements-too-close");
    CHECK(e.line() == 5);
    CHECK(e.message().find("line 4") != std::string::npos);
}

}  // namespace
}  // namespace btforge
