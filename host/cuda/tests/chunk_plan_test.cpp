#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
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

TEST_CASE("guided chunks: shrink towards the end, cover every ordinal once, never below the minimum") {
    std::atomic<std::uint64_t> next{0};
    const std::uint64_t total = 1'048'576;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> taken;
    std::uint64_t begin = 0;
    while (std::uint64_t size = take_guided_chunk(next, total, 262144, 128, 2, &begin)) taken.emplace_back(begin, size);
    REQUIRE(!taken.empty());
    CHECK(taken.front() == std::pair<std::uint64_t, std::uint64_t>{0, 262144});  // capped by max_chunk
    std::uint64_t covered = 0;
    for (std::size_t i = 0; i < taken.size(); ++i) {
        CAPTURE(i);
        CHECK(taken[i].first == covered);
        covered += taken[i].second;
        if (i > 0) CHECK(taken[i].second <= taken[i - 1].second);
        if (i + 1 < taken.size()) {
            CHECK(taken[i].second % 128 == 0);
            CHECK(taken[i].second >= kMinGuidedChunk);
        }
    }
    CHECK(covered == total);
    // remaining / (2 x 2 devices) once below the cap.
    CHECK(taken[1] == std::pair<std::uint64_t, std::uint64_t>{262144, 196608});
    CHECK(taken[2] == std::pair<std::uint64_t, std::uint64_t>{458752, 147456});
    CHECK(take_guided_chunk(next, total, 262144, 128, 2, &begin) == 0);
}

TEST_CASE("guided chunks: a short sweep is one chunk; threads never take the same ordinal") {
    std::atomic<std::uint64_t> next{0};
    std::uint64_t begin = 99;
    CHECK(take_guided_chunk(next, 1000, 262144, 128, 1, &begin) == 1000);
    CHECK(begin == 0);
    CHECK(take_guided_chunk(next, 1000, 262144, 128, 1, &begin) == 0);

    std::atomic<std::uint64_t> shared{0};
    const std::uint64_t total = 5'000'000;
    std::vector<std::uint64_t> sums(4, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            std::uint64_t b = 0;
            while (std::uint64_t size = take_guided_chunk(shared, total, 65536, 128, 4, &b)) sums[t] += size;
        });
    }
    for (std::thread& thread : threads) thread.join();
    CHECK(sums[0] + sums[1] + sums[2] + sums[3] == total);
}
