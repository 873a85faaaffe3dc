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

// Note [Chunks for several GPUs]: each device's share in whole waves.
TEST_CASE("several-device chunks: the large workload on 2 H100-class GPUs at 5 blocks of 128 per SM") {
    const std::uint64_t wave = 5 * 132 * 128;  // 84480
    const std::uint64_t chunk = several_device_chunk(1'048'576, 2, wave, 128);
    CHECK(chunk == 87424);  // 524288 / 6 waves = 87381.3, up to a whole block
    CHECK(chunk >= wave);
    CHECK(chunk % 128 == 0);
    // 12 chunks: 6 per device, the last one 512 combinations short.
    CHECK((1'048'576 + chunk - 1) / chunk == 12);
    CHECK(1'048'576 - 11 * chunk == chunk - 512);
}

TEST_CASE("several-device chunks: table of cases") {
    struct Case {
        std::uint64_t combinations, devices, wave, expected;
    };
    for (const Case& c : std::vector<Case>{
             {1'048'576, 2, 4 * 132 * 128, 75008},  // 7 waves per share at 4 blocks per SM
             {100'000, 2, 84480, 50048},            // a share under one wave is one chunk
             {1'000, 4, 84480, 256},                // tiny: 250 per device, a whole block each
             {1, 8, 84480, 128},                    // fewer combinations than devices: one block
             {84480 * 2, 2, 84480, 84480},          // exactly one wave each
             {84480 * 2 + 1, 2, 84480, 84608},      // one combination more: one whole block more
             {10'000'000, 2, 84480, 84864},          // a long sweep: chunks stay at about one wave
         }) {
        INFO(c.combinations << " combinations, " << c.devices << " devices, wave " << c.wave);
        CHECK(several_device_chunk(c.combinations, c.devices, c.wave, 128) == c.expected);
    }
    CHECK_THROWS_AS(several_device_chunk(1000, 0, 84480, 128), std::invalid_argument);
    CHECK_THROWS_AS(several_device_chunk(1000, 2, 0, 128), std::invalid_argument);
    CHECK_THROWS_AS(several_device_chunk(1000, 2, 84480, 0), std::invalid_argument);
}
