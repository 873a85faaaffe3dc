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
