// Note [Market cache]: a market read back from its cache is the parsed one,
// bit for bit; any other content, options or a damaged file is not used.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include "host/data/csv_market_writer.h"
#include "host/data/instruments.h"
#include "host/data/timestamp_parse.h"
#include "host/data/market_cache.h"
#include "host/data/synthetic_market.h"
#include "host/data/tests/market_compare.h"
#include "host/io/tests/temp_dir.h"
#include "host/io/sha256.h"

namespace btforge {
namespace {

std::string read_all(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_all(const std::filesystem::path& file, const std::string& bytes) {
    std::ofstream(file, std::ios::binary) << bytes;
}

TEST_CASE("the cache gives back the parsed market and facts; other content, options or damage are refused") {
    testing::TempDir dir;
    const std::filesystem::path csv = dir.path() / "m.csv";
    write_market_csv(make_synthetic_market(SyntheticMarketOptions{3, 3, 700}), csv, TimestampFormat::EpochMs);
    MarketLoadOptions options;

    MarketCacheUse first;
    CsvMarketFacts parsed_facts;
    const Market parsed = load_market_csv_cached(csv, options, &parsed_facts, &first);
    CHECK_FALSE(first.hit);
    CHECK(first.written);
    CHECK(first.why_rebuilt == "none yet");
    MarketCacheUse second;
    CsvMarketFacts cached_facts;
    const Market cached = load_market_csv_cached(csv, options, &cached_facts, &second);
    CHECK(second.hit);
    testing::check_same_market(parsed, cached);
    CHECK(cached_facts.epoch_unit == parsed_facts.epoch_unit);
    CHECK(cached_facts.epoch_unit_detected == parsed_facts.epoch_unit_detected);
    CHECK(cached_facts.bars == parsed_facts.bars);
    CHECK(cached_facts.bars_with_funding_rate == parsed_facts.bars_with_funding_rate);

    const std::string key = market_cache_key(csv, options);
    std::string why;
    // Other options: another key.
    MarketLoadOptions two = options;
    two.symbols = {"SYN1USDT"};
    CHECK(market_cache_key(csv, two) != key);
    two = options;
    two.default_funding_rate = 0.0002;
    CHECK(market_cache_key(csv, two) != key);

    const std::filesystem::path cache = second.file;
    const std::string good = read_all(cache);
    struct Damage {
        const char* name;
        std::string bytes;
        const char* why;
    };
    std::string flipped = good;
    flipped[flipped.size() / 2] ^= 0x01;
    std::string wrong_magic = good;
    wrong_magic[0] = 'X';
    const Damage damages[] = {
        {"a flipped byte", flipped, "corrupt: its content does not match its checksum"},
        {"truncated", good.substr(0, good.size() - 10), "corrupt: its size does not match its header (truncated?)"},
        {"not a cache", wrong_magic, "corrupt: not a btforge market cache"},
        {"empty", "", "corrupt: not a btforge market cache"},
    };
    for (const Damage& d : damages) {
        CAPTURE(d.name);
        write_all(cache, d.bytes);
        CHECK_FALSE(read_market_cache(cache, key, options, nullptr, &why).has_value());
        CHECK(why == d.why);
        MarketCacheUse use;
        const Market again = load_market_csv_cached(csv, options, nullptr, &use);
        CHECK_FALSE(use.hit);
        CHECK(use.why_rebuilt == d.why);
        testing::check_same_market(parsed, again);
    }
    // The CSV edited (one digit): the key changes, the cache is rebuilt.
    std::string text = read_all(csv);
    text[text.size() - 2] = text[text.size() - 2] == '1' ? '2' : '1';
    write_all(csv, text);
    CHECK_FALSE(read_market_cache(cache, market_cache_key(csv, options), options, nullptr, &why).has_value());
    CHECK(why == "the CSV or the options changed");
}

TEST_CASE("a cache whose checksum is right but whose content breaks a rule of a parsed CSV is not used") {
    // Note [Market cache], Note [Market rules]: forged or damaged content
    // under a right checksum is checked as a parsed CSV is.
    testing::TempDir dir;
    const std::filesystem::path csv = dir.path() / "m.csv";
    const std::filesystem::path instruments = dir.path() / "m.instruments.json";
    const Market synthetic = make_synthetic_market(SyntheticMarketOptions{2, 3, 60});
    write_market_csv(synthetic, csv, TimestampFormat::EpochMs);
    write_instruments(synthetic.symbols, synthetic.instruments, instruments);
    MarketLoadOptions options;
    options.instruments_file = instruments;
    CsvMarketFacts facts;
    const Market parsed = load_market_csv(csv, options, &facts);
    const std::string key = market_cache_key(csv, options);
    const std::filesystem::path cache = dir.path() / "m.csv.btfcache";
    const std::size_t i = parsed.index(0, parsed.own_bars[0][3]);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    struct Forgery {
        const char* rule;
        std::function<void(Market&, CsvMarketFacts&)> edit;
    };
    const Forgery forgeries[] = {
        {"not-a-number", [&](Market& m, CsvMarketFacts&) { m.close[i] = nan; }},
        {"high-below-open-close", [&](Market& m, CsvMarketFacts&) { m.close[i] = m.high[i] * 2; }},
        {"low-above-open-close", [&](Market& m, CsvMarketFacts&) { m.low[i] = m.high[i]; }},
        {"high-below-low", [&](Market& m, CsvMarketFacts&) { m.low[i] = m.high[i] * 2; }},
        {"non-positive-price", [&](Market& m, CsvMarketFacts&) { m.open[i] = 0.0; }},
        {"price-out-of-range", [&](Market& m, CsvMarketFacts&) { m.open[i] = m.high[i] = 1e13; }},
        {"negative-volume", [&](Market& m, CsvMarketFacts&) { m.volume[i] = -1.0; }},
        {"volume-out-of-range", [&](Market& m, CsvMarketFacts&) { m.volume[i] = 1e25; }},
        {"funding-rate-out-of-range", [&](Market& m, CsvMarketFacts&) { m.funding_rate[i] = 2.0; }},
        {"unsorted-timestamps", [&](Market& m, CsvMarketFacts&) { std::swap(m.timestamp_ms[1], m.timestamp_ms[2]); }},
        {"duplicate-timestamp", [&](Market& m, CsvMarketFacts&) { m.timestamp_ms[2] = m.timestamp_ms[1]; }},
        {"timestamp-out-of-range", [&](Market& m, CsvMarketFacts&) { m.timestamp_ms.back() = kMaxTimestampMs + 1; }},
        {"bad-symbol", [&](Market& m, CsvMarketFacts&) { m.symbols[0] = " SYN1USDT"; }},
        {"out-of-range", [&](Market& m, CsvMarketFacts&) { m.instruments[1].qty_step = 0.0; }},
        {"out-of-range", [&](Market& m, CsvMarketFacts&) { m.instruments[1].price_tick = 1e-320; }},
        {"bad-margin-tier", [&](Market& m, CsvMarketFacts&) { m.instruments[0].margin.rate[1] = 1.5; }},
        {"bad-margin-tier", [&](Market& m, CsvMarketFacts&) { m.instruments[0].margin.amount[2] += 1.0; }},
        {"out-of-range", [&](Market& m, CsvMarketFacts&) { m.instruments[0].margin.liquidation_fee = nan; }},
        {"holds", [&](Market&, CsvMarketFacts& f) { f.bars += 1; }},
    };
    for (const Forgery& forgery : forgeries) {
        CAPTURE(forgery.rule);
        Market forged = parsed;
        CsvMarketFacts forged_facts = facts;
        forgery.edit(forged, forged_facts);
        forged.set_instrument_columns();
        write_market_cache(cache, key, forged, forged_facts);
        std::string why;
        CHECK_FALSE(read_market_cache(cache, key, options, nullptr, &why).has_value());
        CAPTURE(why);
        CHECK(why.rfind("corrupt: ", 0) == 0);
        CHECK(why.find(forgery.rule) != std::string::npos);
        MarketCacheUse use;
        const Market again = load_market_csv_cached(csv, options, nullptr, &use);
        CHECK_FALSE(use.hit);
        CHECK(use.why_rebuilt == why);
        CHECK(use.written);
        testing::check_same_market(parsed, again);
    }
    // The writer itself is sound: the unedited market is read back.
    write_market_cache(cache, key, parsed, facts);
    const auto good = read_market_cache(cache, key, options, nullptr, nullptr);
    REQUIRE(good.has_value());
    testing::check_same_market(parsed, *good);
}

TEST_CASE("the cache is keyed by the bytes the parse read, the instruments file's included") {
    testing::TempDir dir;
    const std::filesystem::path csv = dir.path() / "m.csv";
    const std::filesystem::path instruments = dir.path() / "i.json";
    const Market synthetic = make_synthetic_market(SyntheticMarketOptions{2, 3, 40});
    write_market_csv(synthetic, csv, TimestampFormat::EpochMs);
    write_instruments(synthetic.symbols, synthetic.instruments, instruments);
    MarketLoadOptions options;
    options.instruments_file = instruments;
    MarketCacheUse use;
    (void)load_market_csv_cached(csv, options, nullptr, &use);
    REQUIRE(use.written);
    const std::string stored = read_all(use.file).substr(12, 64);
    const MarketInputDigests digests{sha256_hex(read_all(csv)), sha256_hex(read_all(instruments))};
    CHECK(stored == market_cache_key(digests, options));
    CHECK(stored == market_cache_key(csv, options));
    // Another instruments file (a space more) is another key.
    write_all(instruments, read_all(instruments) + " ");
    CHECK(market_cache_key(csv, options) != stored);
}

TEST_CASE("a cache path that is not a regular file is neither read nor replaced; a stream is not cached") {
    testing::TempDir dir;
    const std::filesystem::path csv = dir.path() / "m.csv";
    write_market_csv(make_synthetic_market(SyntheticMarketOptions{1, 3, 30}), csv, TimestampFormat::EpochMs);
    const Market parsed = load_market_csv(csv);
    const std::filesystem::path cache = dir.path() / "m.csv.btfcache";
    // A FIFO without a writer hung open() before (Note [Reading input files]).
    REQUIRE(::mkfifo(cache.c_str(), 0600) == 0);
    MarketCacheUse use;
    testing::check_same_market(parsed, load_market_csv_cached(csv, {}, nullptr, &use));
    CHECK_FALSE(use.hit);
    CHECK_FALSE(use.written);
    CHECK(use.why_rebuilt.rfind("it is a FIFO or pipe, not a market cache", 0) == 0);
    CHECK(std::filesystem::is_fifo(cache));
    CHECK(describe_market_cache_use(use).find("not cached: m.csv.btfcache is left as it is") != std::string::npos);
    std::filesystem::remove(cache);
    std::filesystem::create_directory(cache);
    (void)load_market_csv_cached(csv, {}, nullptr, &use);
    CHECK(use.why_rebuilt == "it is a directory, not a market cache");
    CHECK(std::filesystem::is_directory(cache));

    // The market file a pipe, as `--data <(zcat m.csv.gz)` gives one: read
    // once as it comes, nothing cached beside it.
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    std::thread writer([&] {
        const std::string text = read_all(csv);
        for (std::size_t at = 0; at < text.size();) {
            const ssize_t wrote = ::write(ends[1], text.data() + at, text.size() - at);
            if (wrote <= 0) break;
            at += static_cast<std::size_t>(wrote);
        }
        ::close(ends[1]);
    });
    const std::filesystem::path pipe = "/proc/self/fd/" + std::to_string(ends[0]);
    MarketCacheUse piped;
    const Market streamed = load_market_csv_cached(pipe, {}, nullptr, &piped);
    writer.join();
    ::close(ends[0]);
    testing::check_same_market(parsed, streamed);
    CHECK_FALSE(piped.written);
    CHECK(piped.write_error == "a stream (a FIFO or pipe) is read once");
}

}  // namespace
}  // namespace btforge
