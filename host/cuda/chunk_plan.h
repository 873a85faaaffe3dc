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
// more. A chunk smaller than one wave (the blocks all SMs hold at once) lets
// SMs idle whenever a chunk ends: its last blocks run while the next chunk
// has no blocks left to start, until the host launches the one after. So
// each device's share of the sweep is cut into equal chunks of at least one
// wave (`wave` combinations = resident blocks per SM x SMs x block size,
// measured on the device): share / floor(share / wave), between one wave and
// two, rounded up to a whole block (the share itself when it is under one
// wave); the caller caps it at the larger of max_chunk and one wave. Equal
// devices then take the same number of chunks and finish together. Measured on
// 2 x H200 (docs/PERFORMANCE.md, "Several GPUs, third session").
std::uint64_t several_device_chunk(std::uint64_t combinations, std::uint64_t devices, std::uint64_t wave,
                                   std::uint64_t granularity);

}  // namespace btforge::cuda
