// Fuzz target: the shard reader (host/report/shard_file.h) and the checks of
// a set of shards that need no market: read_shard_bytes, check_shards, and
// check_shards_ran against the default strategy's embedded spec and the
// grids the seeds ran, as merge runs them. The seeds (fuzz/corpus/shard/)
// are shards of `btforge sweep --synthetic-bars 300 --synthetic-symbols 1
// --grid G --shard i/N` with kGrids[0] (--top 2 --periods 2, 0/2;
// --all-rows, 1/3; an empty shard, 7/8) and kGrids[1] (--top 1 --periods 4
// --pbo --cpcv 1:0 --spa 20 --returns 10, 1/2; the same with
// --spa-benchmark hold, whose identity carries the benchmark's marks), and
// daily_returns.shard of `btforge sweep --synthetic-bars 275 --param
// ema_fast=8,12 --param mode=0,1 --top 1 --periods 4 --pbo --cpcv 1:0 --spa
// 20 --returns daily --shard 0/2`, on the cpu backend with 2
// threads; shard format 8 (a seed of an older format stops at the version,
// and so would every mutation of it). Any input may be refused with a
// DataError or another std::runtime_error (a refusal that names the shard); anything else
// escaping (a nlohmann or libstdc++ exception, std::bad_alloc), a crash, a
// leak or undefined behaviour is a bug. A shard that is read must write back
// to bytes that read again to the same shard.
//
// A checksum guards each section (Note [Shard files]), so byte-level
// mutations alone would stop at the first digest. The custom mutator below
// mutates one section of a well-framed input and frames it again with true
// lengths and digests, or forges a section's length, so the fuzzer reaches
// the header's fields, the counts and the rows' checks behind the
// checksums; one mutation in four is libFuzzer's own on the raw bytes.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "host/engine/indicator_signatures.h"
#include "host/io/sha256.h"
#include "host/report/shard_file.h"
#include "host/spec/combination_space.h"
#include "host/spec/grid.h"
#include "host/spec/strategy_spec.h"
#include "spec/embedded_specs.h"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace {

constexpr std::size_t kPrefix = 12;  // "BTFSHARD" and the version
constexpr std::size_t kDigest = 32;
constexpr std::size_t kSections = 5;  // header, rows, periods, outcomes, marks (Note [Shard files])

// The grids of fuzz/corpus/shard/: the merge's "grid on disk".
constexpr const char* kGrids[] = {
    R"({"strategy": "default", "parameters": {"ema_fast": {"values": [8, 12, 20]}, "sl_atr": {"values": [1.5, 2]}}})",
    R"({"strategy": "default", "parameters": {"ema_fast": {"values": [8, 12, 20]}, "sl_atr": {"values": [1.5, 2]}},
        "random": {"count": 4, "seed": 3}})",
};

struct Run {
    std::string spec_text;
    btforge::StrategySpec spec;
    std::vector<btforge::Grid> grids;
    std::vector<btforge::CombinationSpace> spaces;
};

const Run& run() {
    static const Run loaded = [] {
        Run r;
        r.spec_text = std::string(*btforge::embedded_spec_file("default.json"));
        r.spec = btforge::parse_strategy_spec(r.spec_text, "default.json", btforge::indicator_signatures());
        for (const char* grid : kGrids) r.grids.push_back(btforge::parse_grid(grid, "grid.json", r.spec));
        for (const btforge::Grid& grid : r.grids) r.spaces.emplace_back(r.spec, grid);
        return r;
    }();
    return loaded;
}

// An input cut into its prefix and its sections, when it is framed so.
struct Framed {
    std::string prefix;
    std::string sections[kSections];
};

std::optional<Framed> split(const std::uint8_t* data, std::size_t size) {
    if (size < kPrefix) return std::nullopt;
    Framed framed;
    framed.prefix.assign(reinterpret_cast<const char*>(data), kPrefix);
    std::size_t at = kPrefix;
    for (std::string& section : framed.sections) {
        std::uint64_t length = 0;
        if (size - at < sizeof length) return std::nullopt;
        std::memcpy(&length, data + at, sizeof length);
        at += sizeof length;
        if (length > size - at || size - at - length < kDigest) return std::nullopt;
        section.assign(reinterpret_cast<const char*>(data) + at, length);
        at += length + kDigest;
    }
    return framed;
}

std::string raw_sha256(const std::string& bytes) {
    const std::string hex = btforge::sha256_hex(bytes);
    std::string raw(kDigest, '\0');
    for (std::size_t i = 0; i < kDigest; ++i) raw[i] = static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
    return raw;
}

std::string frame(const Framed& framed) {
    std::string out = framed.prefix;
    for (const std::string& section : framed.sections) {
        const std::uint64_t length = section.size();
        out.append(reinterpret_cast<const char*>(&length), sizeof length);
        out += section;
        out += raw_sha256(section);
    }
    return out;
}

void check(const std::string& name, std::string_view bytes) {
    const Run& r = run();
    btforge::ShardFile shard;
    try {
        shard = btforge::read_shard_bytes(name, bytes);
    } catch (const std::runtime_error&) {
        return;  // refused, by name
    }
    // What is read writes back to what reads the same.
    const std::string again = btforge::shard_bytes(shard);
    const btforge::ShardFile reread = btforge::read_shard_bytes("rewritten", again);
    if (reread.identity != shard.identity || reread.rows.size() != shard.rows.size() ||
        reread.periods.size() != shard.periods.size() || btforge::shard_bytes(reread) != again) {
        __builtin_trap();
    }
    std::vector<btforge::NamedShard> set;
    set.push_back({name, std::move(shard)});
    try {
        (void)btforge::check_shards(set);
    } catch (const std::runtime_error&) {
        // One shard of several misses the others: its rows are checked all the same.
    }
    for (std::size_t g = 0; g < r.grids.size(); ++g) {
        try {
            btforge::check_shards_ran(set, r.spec_text, r.spec.origin, r.grids[g], r.spaces[g]);
        } catch (const std::runtime_error&) {
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    check("fuzz.shard", std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
    std::minstd_rand random(seed);
    std::optional<Framed> framed = split(data, size);
    if (!framed || random() % 4 == 0) return LLVMFuzzerMutate(data, size, max_size);
    std::string& section = framed->sections[random() % kSections];
    const std::size_t others = size - section.size();
    if (others >= max_size) return LLVMFuzzerMutate(data, size, max_size);
    const std::size_t room = max_size - others;
    std::string mutated = section;
    mutated.resize(room);
    mutated.resize(LLVMFuzzerMutate(reinterpret_cast<std::uint8_t*>(mutated.data()), section.size(), room));
    section = std::move(mutated);
    std::string out = frame(*framed);
    if (random() % 8 == 0) {
        // A length no file holds, off by one, or of another section.
        const std::uint64_t forged[] = {~std::uint64_t{0}, std::uint64_t{1} << 63, section.size() + 1,
                                        section.size() == 0 ? 0 : section.size() - 1, random()};
        const std::uint64_t length = forged[random() % 5];
        std::size_t at = kPrefix;
        const std::size_t which = random() % kSections;
        for (std::size_t i = 0; i < which; ++i) at += sizeof(std::uint64_t) + framed->sections[i].size() + kDigest;
        std::memcpy(out.data() + at, &length, sizeof length);
    }
    if (out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
    std::memcpy(data, out.data(), out.size());
    return out.size();
}
