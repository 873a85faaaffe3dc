#include "host/cuda/chunk_plan.h"

#include <algorithm>

#include "host/cuda/byte_count.h"

namespace btforge::cuda {

ChunkPlan plan_chunks(const ChunkPlanInput& in) {
    if (in.granularity == 0 || in.buffers == 0 || in.bytes_per_combination == 0) {
        throw std::invalid_argument("chunk planning needs a granularity, buffers and bytes per combination");
    }
    if (in.max_chunk < in.granularity) {
        throw std::invalid_argument("the chunk cap (" + std::to_string(in.max_chunk) +
                                    ") is smaller than one block (" + std::to_string(in.granularity) + ")");
    }
    ChunkPlan plan;
    if (in.combinations == 0) {
        plan.device_bytes = in.resident_bytes;
        return plan;
    }
    const std::uint64_t per_block = in.granularity * in.bytes_per_combination * in.buffers;
    const std::uint64_t fixed = in.resident_bytes + in.safety_margin_bytes;
    const std::uint64_t available = in.free_bytes > fixed ? in.free_bytes - fixed : 0;
    const std::uint64_t blocks_fit = available / per_block;
    if (blocks_fit == 0) {
        throw ChunkPlanError(
            "the device has " + format_bytes(in.free_bytes) + " free; this sweep needs at least " +
            format_bytes(fixed + per_block) + " (" + format_bytes(in.resident_bytes) +
            " for the market, indicator series and tables, " + format_bytes(per_block) + " for " +
            std::to_string(in.buffers) + " chunks of " + std::to_string(in.granularity) + " combinations, " +
            format_bytes(in.safety_margin_bytes) + " kept free for the driver)");
    }
    const std::uint64_t needed_blocks = (in.combinations + in.granularity - 1) / in.granularity;
    const std::uint64_t cap_blocks = in.max_chunk / in.granularity;
    const std::uint64_t blocks = std::min({blocks_fit, cap_blocks, needed_blocks});
    plan.chunk = blocks * in.granularity;
    plan.chunks = (in.combinations + plan.chunk - 1) / plan.chunk;
    plan.device_bytes = in.resident_bytes + blocks * per_block;
    return plan;
}

std::uint64_t several_device_chunk(std::uint64_t combinations, std::uint64_t devices, std::uint64_t wave,
                                   std::uint64_t granularity) {
    if (devices == 0 || wave == 0 || granularity == 0) {
        throw std::invalid_argument("several-device chunks need devices, a wave and a granularity");
    }
    const std::uint64_t share = combinations / devices + (combinations % devices != 0 ? 1 : 0);
    const std::uint64_t waves = std::max<std::uint64_t>(share / wave, 1);
    const std::uint64_t chunk = (share + waves - 1) / waves;
    return std::max<std::uint64_t>((chunk + granularity - 1) / granularity * granularity, granularity);
}

}  // namespace btforge::cuda
