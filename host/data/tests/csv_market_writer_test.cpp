#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "host/data/csv_market_loader.h"
#include "host/data/csv_market_writer.h"
#include "host/data/instruments.h"
#include "host/data/synthetic_market.h"
#include "host/data/tests/market_compare.h"
#include "host/io/tests/temp_dir.h"

using btforge::load_market_csv;
using btforge::make_synthetic_market;
using btforge::Market;
using btforge::MarketLoadOptions;
using btforge::SyntheticMarketOptions;
using btforge::TimestampFormat;
using btforge::write_market_csv;
using btforge::testing::check_same_market;
using btforge::testing::TempDir;

namespace {

std::string read_text(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("write then load gives back the same market, bit for bit") {
    SyntheticMarketOptions options;
    options.n_symbols = 5;
    options.n_bars = 3000;
    const Market original = make_synthetic_market(options);
    for (const auto format : {TimestampFormat::EpochMs, TimestampFormat::Iso8601}) {
        TempDir dir;
        write_market_csv(original, dir.path() / "m.csv", format);
        btforge::write_instruments(original.symbols, original.instruments, dir.path() / "i.json");
        CHECK(dir.entry_count() == 2);  // no temporaries left behind
        MarketLoadOptions load;
        load.instruments_file = dir.path() / "i.json";
        const Market loaded = load_market_csv(dir.path() / "m.csv", load);
        check_same_market(original, loaded);
    }
}

TEST_CASE("the written CSV is the documented long format") {
    SyntheticMarketOptions options;
    options.n_symbols = 1;
    options.n_bars = 2;
    const Market m = make_synthetic_market(options);
    TempDir dir;
    write_market_csv(m, dir.path() / "m.csv", TimestampFormat::Iso8601);
    const std::string text = read_text(dir.path() / "m.csv");
    CHECK(text.rfind("timestamp,symbol,open,high,low,close,volume,funding_rate\n"
                     "2024-01-01T00:00:00.000Z,SYN1USDT,30000,",
                     0) == 0);
}

TEST_CASE("a failed write leaves no file") {
    const Market m = make_synthetic_market(SyntheticMarketOptions{.n_symbols = 1, .n_bars = 5});
    TempDir dir;
    CHECK_THROWS(write_market_csv(m, dir.path() / "no-such-dir" / "m.csv"));
    CHECK(dir.entry_count() == 0);
}

TEST_CASE("symbols that need quoting survive the round trip") {
    Market m = make_synthetic_market(SyntheticMarketOptions{.n_symbols = 2, .n_bars = 50});
    m.symbols = {"A,B", "say \"hi\""};
    TempDir dir;
    write_market_csv(m, dir.path() / "m.csv");
    const Market loaded = load_market_csv(dir.path() / "m.csv");
    check_same_market(m, loaded, false);
}
