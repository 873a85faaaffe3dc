#include "host/cuda/chunk_plan.h"

#include <algorithm>
#include <numeric>

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
    const std::uint64_t pieces = std::max<std::uint64_t>(share / (2 * wave), 1);
    const std::uint64_t chunk = (share + pieces - 1) / pieces;
    return std::max<std::uint64_t>((chunk + granularity - 1) / granularity * granularity, granularity);
}

BalancedOrder::BalancedOrder(std::uint64_t count, std::uint64_t stripe)
    : count_(count), stripe_(std::max<std::uint64_t>(stripe, 1)), stripes_(count / stripe_), stride_(1) {
    if (stripes_ <= 2) return;
    // The golden section: consecutive multiples spread as evenly as any stride can.
    const double golden = 0.6180339887498949;
    std::uint64_t stride = static_cast<std::uint64_t>(static_cast<double>(stripes_) * golden + 0.5);
    stride = std::clamp<std::uint64_t>(stride, 1, stripes_ - 1);
    while (std::gcd(stride, stripes_) != 1) ++stride;  // ends at stripes_ - 1 at the latest
    stride_ = stride;
}

std::uint64_t BalancedOrder::operator()(std::uint64_t position) const {
    if (position >= count_) {
        throw std::out_of_range("BalancedOrder: position " + std::to_string(position) + " >= count " +
                                std::to_string(count_));
    }
    const std::uint64_t stripe = position / stripe_;
    if (stripe >= stripes_) return position;  // the tail past the last whole stripe
    // stripe x stride may pass 2^64 for sweeps of more than 2^32 stripes.
    __extension__ using Wide = unsigned __int128;
    const auto visited = static_cast<std::uint64_t>(static_cast<Wide>(stripe) * stride_ % stripes_);
    return visited * stripe_ + position % stripe_;
}

std::uint64_t balanced_stripe(std::uint64_t count, std::uint64_t series_block, std::uint64_t granularity) {
    std::uint64_t stripe = std::max<std::uint64_t>(series_block, 1);
    const std::uint64_t floor = std::max<std::uint64_t>(granularity, 1);
    while (stripe > floor && count / stripe < 64) stripe = std::max(floor, stripe / 2);
    return stripe;
}

}  // namespace btforge::cuda
