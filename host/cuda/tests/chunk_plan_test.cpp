#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "host/cuda/chunk_plan.h"

using namespace btforge::cuda;

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kPerCombination = 8 + 136;  // id + Metrics row
constexpr std::uint64_t kPerBlock = 128 * kPerCombination * 2;

ChunkPlanInput input(std::uint64_t free_bytes, std::uint64_t combinations) {
    ChunkPlanInput in;
    in.free_bytes = free_bytes;
    in.resident_bytes = 100 * kMiB;
    in.bytes_per_combination = kPerCombination;
    in.buffers = 2;
    in.safety_margin_bytes = 256 * kMiB;
    in.max_chunk = std::uint64_t{1} << 18;
    in.combinations = combinations;
    in.granularity = 128;
    return in;
}

}  // namespace

TEST_CASE("chunk plan: a device too small for one block says how much is needed") {
    ChunkPlanInput in = input(300 * kMiB, 1'000'000);
    CHECK_THROWS_AS(plan_chunks(in), ChunkPlanError);
    try {
        plan_chunks(in);
    } catch (const ChunkPlanError& e) {
        std::string message = e.what();
        CHECK(message.find("300.0 MiB free") != std::string::npos);
        // 100 MiB resident + 256 MiB margin + one block in two slots (36 KiB).
        CHECK(message.find("needs at least 356.0 MiB") != std::string::npos);
        CHECK(message.find("100.0 MiB for the market, indicator series and tables") != std::string::npos);
        CHECK(message.find("2 chunks of 128 combinations") != std::string::npos);
    }
}

TEST_CASE("chunk plan: plenty of memory is capped by max_chunk") {
    ChunkPlanInput in = input(80ull * 1024 * kMiB, 10'000'000);
    ChunkPlan plan = plan_chunks(in);
    CHECK(plan.chunk == (std::uint64_t{1} << 18));
    CHECK(plan.chunks == (10'000'000 + plan.chunk - 1) / plan.chunk);
    CHECK(plan.device_bytes == 100 * kMiB + plan.chunk * kPerCombination * 2);
}

TEST_CASE("chunk plan: a small sweep takes one chunk, rounded up to whole blocks") {
    ChunkPlan plan = plan_chunks(input(80ull * 1024 * kMiB, 1000));
    CHECK(plan.chunk == 1024);
    CHECK(plan.chunks == 1);
    ChunkPlan exact = plan_chunks(input(80ull * 1024 * kMiB, 128 * 5));
    CHECK(exact.chunk == 640);
    CHECK(exact.chunks == 1);
}

TEST_CASE("chunk plan: exact fits") {
    const std::uint64_t fixed = 100 * kMiB + 256 * kMiB;
    ChunkPlan plan = plan_chunks(input(fixed + 7 * kPerBlock, 1'000'000));
    CHECK(plan.chunk == 7 * 128);
    CHECK(plan.chunks == (1'000'000 + 895) / 896);
    CHECK(plan.device_bytes == 100 * kMiB + 7 * kPerBlock);
    CHECK(plan_chunks(input(fixed + 7 * kPerBlock - 1, 1'000'000)).chunk == 6 * 128);
    CHECK(plan_chunks(input(fixed + kPerBlock, 1'000'000)).chunk == 128);
    CHECK_THROWS_AS(plan_chunks(input(fixed + kPerBlock - 1, 1'000'000)), ChunkPlanError);
}

TEST_CASE("chunk plan: nothing to run, and inconsistent input") {
    ChunkPlan empty = plan_chunks(input(80ull * 1024 * kMiB, 0));
    CHECK(empty.chunk == 0);
    CHECK(empty.chunks == 0);
    ChunkPlanInput bad_cap = input(80ull * 1024 * kMiB, 10);
    bad_cap.max_chunk = 64;
    CHECK_THROWS_AS(plan_chunks(bad_cap), std::invalid_argument);
    ChunkPlanInput no_size = input(80ull * 1024 * kMiB, 10);
    no_size.bytes_per_combination = 0;
    CHECK_THROWS_AS(plan_chunks(no_size), std::invalid_argument);
}

// Note [Chunks for several GPUs]: each device's share in chunks of at least two waves.
TEST_CASE("several-device chunks: the large workload on 2 H100-class GPUs") {
    // 6 blocks of 128 per SM (the landed kernel): two chunks of 2.6 waves per device.
    const std::uint64_t wave6 = 6 * 132 * 128;  // 101376
    CHECK(several_device_chunk(1'048'576, 2, wave6, 128) == 262144);
    // 5 blocks per SM: 524288 / floor(524288 / 168960) = 3 pieces, up to a whole block.
    const std::uint64_t wave5 = 5 * 132 * 128;  // 84480
    const std::uint64_t chunk = several_device_chunk(1'048'576, 2, wave5, 128);
    CHECK(chunk == 174848);
    CHECK(chunk >= 2 * wave5);
    CHECK(chunk % 128 == 0);
    // 6 chunks: 3 per device, the last one 512 combinations short.
    CHECK((1'048'576 + chunk - 1) / chunk == 6);
    CHECK(1'048'576 - 5 * chunk == chunk - 512);
}

TEST_CASE("several-device chunks: table of cases") {
    struct Case {
        std::uint64_t combinations, devices, wave, expected;
    };
    for (const Case& c : std::vector<Case>{
             {1'048'576, 2, 4 * 132 * 128, 174848},  // 7.8 waves per share at 4 blocks per SM: 3 pieces
             {100'000, 2, 84480, 50048},             // a share under two waves is one chunk
             {1'000, 4, 84480, 256},                 // tiny: 250 per device, a whole block each
             {1, 8, 84480, 128},                     // fewer combinations than devices: one block
             {84480 * 2, 2, 84480, 84480},           // one wave each: one chunk each
             {84480 * 2 + 1, 2, 84480, 84608},       // one combination more: one whole block more
             {84480 * 4, 2, 84480, 168960},          // exactly two waves each
             {10'000'000, 2, 84480, 172416},         // a long sweep: chunks stay at about two waves
         }) {
        INFO(c.combinations << " combinations, " << c.devices << " devices, wave " << c.wave);
        CHECK(several_device_chunk(c.combinations, c.devices, c.wave, 128) == c.expected);
    }
    CHECK_THROWS_AS(several_device_chunk(1000, 0, 84480, 128), std::invalid_argument);
    CHECK_THROWS_AS(several_device_chunk(1000, 2, 0, 128), std::invalid_argument);
    CHECK_THROWS_AS(several_device_chunk(1000, 2, 84480, 0), std::invalid_argument);
}

// Note [Chunks of equal cost]
TEST_CASE("balanced order: a bijection of [0, count) for every shape") {
    struct Case {
        std::uint64_t count, stripe;
    };
    for (const Case& c : std::vector<Case>{
             {0, 8}, {1, 8}, {7, 8}, {8, 8}, {16, 8}, {24, 8}, {1000, 8}, {1003, 8}, {4096, 64},
             {4096 + 37, 64}, {12288, 96}, {5000, 1}, {999, 1000}, {131072, 8192},
         }) {
        INFO(c.count << " ordinals in stripes of " << c.stripe);
        const BalancedOrder order(c.count, c.stripe);
        std::vector<bool> seen(c.count, false);
        for (std::uint64_t p = 0; p < c.count; ++p) {
            const std::uint64_t ordinal = order(p);
            REQUIRE(ordinal < c.count);
            CHECK_FALSE(seen[ordinal]);
            seen[ordinal] = true;
            // Within a stripe the order is kept, and the tail stays in place.
            if (p % c.stripe != 0) CHECK(ordinal == order(p - 1) + 1);
            if (p >= c.count / c.stripe * c.stripe) CHECK(ordinal == p);
        }
        CHECK_THROWS_AS(order(c.count), std::out_of_range);
    }
}

TEST_CASE("balanced order: the stride is coprime with the stripes and near their golden section") {
    CHECK(BalancedOrder(128 * 8192, 8192).stride() == 79);  // 128 x 0.618 = 79.1, odd
    CHECK(BalancedOrder(100 * 10, 10).stride() == 63);      // 61.8 -> 62, shares 2 with 100 -> 63
    CHECK(BalancedOrder(2 * 10, 10).stride() == 1);         // two stripes: kept in order
    CHECK(BalancedOrder(3 * 10, 10).stride() == 2);
}

TEST_CASE("balanced order: each chunk of the large benchmark covers every value of its first digit") {
    // 1 048 576 ordinals in 128 series blocks of 8192; the first digit
    // (ema_fast, 4 values) is ordinal / 262144. In ordinal order each chunk of
    // 262144 has one value; in the balanced order every chunk has all four,
    // 7 to 9 of its 32 blocks each.
    const BalancedOrder order(1'048'576, 8192);
    for (std::uint64_t chunk = 0; chunk < 4; ++chunk) {
        std::vector<int> blocks(4, 0);
        for (std::uint64_t p = chunk * 262144; p < (chunk + 1) * 262144; p += 8192) blocks[order(p) / 262144] += 1;
        INFO("chunk " << chunk);
        for (int b : blocks) CHECK((b >= 7 && b <= 9));
    }
}

TEST_CASE("balanced stripe: series blocks while there are 64 of them, halved down to a block") {
    CHECK(balanced_stripe(1'048'576, 8192, 128) == 8192);   // 128 series blocks
    CHECK(balanced_stripe(12'288, 768, 128) == 192);        // 16 blocks -> halved twice to 64 stripes
    CHECK(balanced_stripe(4'608, 4608, 128) == 128);        // one series block -> down to one block
    CHECK(balanced_stripe(100, 1, 128) == 1);               // already smaller than a block
    CHECK(balanced_stripe(0, 8192, 128) == 128);
}
