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

}  // namespace btforge::cuda
