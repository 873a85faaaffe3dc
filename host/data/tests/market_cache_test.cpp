// Note [Market cache]: a market read back from its cache is the parsed one,
// bit for bit; any other content, options or a damaged file is not used.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "host/data/csv_market_writer.h"
#include "host/data/market_cache.h"
#include "host/data/synthetic_market.h"
#include "host/data/tests/market_compare.h"
#include "host/data/tests/temp_dir.h"

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
        CHECK_FALSE(read_market_cache(cache, key, nullptr, &why).has_value());
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
    CHECK_FALSE(read_market_cache(cache, market_cache_key(csv, options), nullptr, &why).has_value());
    CHECK(why == "the CSV or the options changed");
}

}  // namespace
}  // namespace btforge
