#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace btforge::cuda {

// Note [Chunk planning]
// A sweep keeps the market, the indicator series and the decode tables on
// the device for the whole run (resident bytes), and streams combinations
// through `buffers` chunk slots (two: the copy of chunk k+1 overlaps kernel
// k), each holding per combination its id and its results row. The chunk is
// the largest multiple of `granularity` (the block size, so no block is cut)
// that fits in what is free once the resident data and the safety margin are
// taken, capped by `max_chunk` (progress and cancellation are per chunk) and
// by what the sweep needs (the combinations, rounded up to the granularity).
struct ChunkPlanInput {
    std::uint64_t free_bytes = 0;              // device memory free before this sweep allocates
    std::uint64_t resident_bytes = 0;          // market + series + tables, allocated once
    std::uint64_t bytes_per_combination = 0;   // one slot's id + row
    std::uint64_t buffers = 2;                 // chunk slots in flight
    std::uint64_t safety_margin_bytes = 0;     // left free for the driver (module, stack, launch)
    std::uint64_t max_chunk = 0;               // cap on combinations per chunk, >= granularity
    std::uint64_t combinations = 0;            // the sweep's size
    std::uint64_t granularity = 128;
};

struct ChunkPlan {
    std::uint64_t chunk = 0;          // combinations per chunk (a multiple of granularity)
    std::uint64_t chunks = 0;         // launches for the whole sweep
    std::uint64_t device_bytes = 0;   // resident + the chunk slots: what the sweep allocates
};

// The device does not have the memory one chunk of `granularity` needs;
// what() says how much is needed and how much is free.
class ChunkPlanError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Pure: no device involved. Throws ChunkPlanError when even the smallest
// chunk does not fit, std::invalid_argument on inconsistent input.
ChunkPlan plan_chunks(const ChunkPlanInput& input);

// Note [Chunks for several GPUs]
// Several devices take chunks from one counter, so a faster device takes
// more. A chunk ends only when its slowest block does, and a device refills
// its slot only then: with chunks of about one wave the SMs idled meanwhile
// (+3.7% kernel time on one H200 against chunks of 2.6 waves). So each
// device's share of the sweep is cut into equal chunks of at least two waves
// (`wave` combinations = resident blocks per SM x SMs x block size, measured
// on the device): share / floor(share / (2 x wave)), rounded up to a whole
// block (the share itself when it is under two waves); the caller caps it at
// the larger of max_chunk and one wave. Chunks that large split the work
// evenly only if any two cost the same: Note [Chunks of equal cost].
// Measured on 2 x H200 (docs/PERFORMANCE.md, "Issue 5, fourth session").
std::uint64_t several_device_chunk(std::uint64_t combinations, std::uint64_t devices, std::uint64_t wave,
                                   std::uint64_t granularity);

// Note [Chunks of equal cost]
// A combination's cost depends on its parameters: in ordinal order (Note
// [Mixed radix digit order]) a chunk covers few values of the most
// significant series parameter, and the four chunks of the large benchmark
// (one EMA period each) differ by a quarter in time. For several GPUs the
// ordinals are handed out in an order in which every stretch samples the
// whole space: `count` is cut into stripes of `stripe` ordinals, and
// position p runs stripe (p / stripe) x stride mod stripes, with a stride
// coprime with the number of whole stripes and near its golden section, so
// consecutive stripes land far apart and cover the space evenly. Stripes are
// series blocks where there are enough of them (balanced_stripe), so the
// blocks an SM runs together still share their indicator series. The
// ordinals past the last whole stripe stay in place, at the end. A
// bijection of [0, count): the ids, and so the results, are those of one
// GPU.
class BalancedOrder {
public:
    BalancedOrder(std::uint64_t count, std::uint64_t stripe);
    // The ordinal to run at `position` in [0, count).
    std::uint64_t operator()(std::uint64_t position) const;
    std::uint64_t stripe() const noexcept { return stripe_; }
    std::uint64_t stride() const noexcept { return stride_; }

private:
    std::uint64_t count_;
    std::uint64_t stripe_;
    std::uint64_t stripes_;  // whole stripes
    std::uint64_t stride_;
};

// The stripe of a BalancedOrder: the series block (combinations that share
// every series), halved while the sweep has fewer than 64 stripes of it,
// down to one block of `granularity`.
std::uint64_t balanced_stripe(std::uint64_t count, std::uint64_t series_block, std::uint64_t granularity);

}  // namespace btforge::cuda
