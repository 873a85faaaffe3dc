#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "host/cuda/cuda_module.h"
#include "host/cuda/cuda_resources.h"
#include "host/cuda/kernels/top_n_select.h"
#include "host/engine/metric_columns.h"
#include "host/engine/top_n.h"
#include "host/engine/top_outcomes.h"

namespace btforge::cuda {

// The fatbin of host/cuda/kernels/top_n_select.cu, embedded by
// cmake/HostKernels.cmake with the strategy kernels' nvcc flags; empty
// when the build had no nvcc (every row is then copied back, as before).
std::span<const unsigned char> embedded_top_n_select_image();

// Where `column` lives in device::Metrics (its fields are in the order of
// metric_columns(), SPEC §7).
struct DeviceMetricField {
    unsigned offset;
    bool integral;
};
DeviceMetricField device_metric_field(const MetricColumn& column);

// Whether the device selection serves a sweep keeping `top_n` rows: at least
// one, fewer than a tile (otherwise the blocks' winners are every row), and
// not every row asked for (--all-rows needs them all anyway).
bool device_top_n_applies(std::size_t top_n, bool keep_all_rows);

// Device memory of one slot's output area for `keep` winners per tile and
// every row's outcome key (DeviceTopN): at most per_combination x chunk +
// per_slot bytes for any chunk, the last tile's rounding included; the
// chunk planner counts it.
struct TopNAreaBytes {
    std::uint64_t per_combination = 0;
    std::uint64_t per_slot = 0;
};
TopNAreaBytes device_top_n_area_bytes(unsigned keep);

// The launch of the selection over a chunk in `order` (Note [Rank keys]);
// rows, ids and the outputs are left null for the caller to point.
device::TopNSelectLaunch top_n_select_launch(const RankOrder& order, std::size_t top_n, std::uint64_t count);

// Runs the selection kernel's phases on the host, sequentially, over every
// block of the launch: the kernel's logic without a GPU (the tests run it).
void top_n_select_on_host(const device::TopNSelectLaunch& launch);

// Offers the real winners among `blocks * keep` outputs to `top` (Note
// [Distinct outcomes on the device]: the outputs of id kNoWinner are none).
void offer_block_winners(const unsigned long long* ids, const device::Metrics* rows, const OutcomeKey* keys,
                         std::uint64_t count, unsigned keep, TopOutcomes& top);

// The selection for one CUDA sweep (Note [Top N on the device]): one output
// area per chunk slot, on the device and pinned on the host. Needs a current
// context.
class DeviceTopN {
public:
    // Loads the embedded kernel; `source` describes the device and the build
    // for load errors. Use only when device_top_n_applies() and the image is
    // not empty.
    DeviceTopN(const CudaDriver& driver, const RankOrder& order, std::size_t top_n, std::uint64_t chunk,
               std::size_t slots, ModuleSource source);

    // Queues the selection of the chunk in `rows`/`ids`/`periods` (device
    // memory, `count` rows, `n_periods` period statistics each) on `stream`,
    // and the copy of its winners and of every row's outcome key to slot
    // `slot`.
    void enqueue(std::size_t slot, const Stream& stream, CUdeviceptr ids, CUdeviceptr rows, CUdeviceptr periods,
                 std::size_t n_periods, std::uint64_t count);
    // After the stream is synchronized: offers slot `slot`'s winners, adds
    // its rows with non-finite metrics (Note [Rows with non-finite metrics])
    // to `invalid_rows`.
    void offer(std::size_t slot, std::uint64_t count, TopOutcomes& top, std::uint64_t& invalid_rows) const;
    // After the stream is synchronized: the outcome key of each of the
    // chunk's `count` rows, in the chunk's order.
    std::span<const OutcomeKey> keys(std::size_t slot, std::uint64_t count) const;

private:
    struct Area {
        DeviceBuffer device_ids;
        DeviceBuffer device_rows;
        DeviceBuffer device_keys;      // the winners'
        DeviceBuffer device_all_keys;  // every row's
        PinnedBuffer ids;
        PinnedBuffer rows;
        PinnedBuffer keys;
        PinnedBuffer all_keys;
        DeviceBuffer device_invalid;  // one counter, zeroed from `invalid` before each launch
        PinnedBuffer invalid;
    };
    const CudaDriver* driver_;
    CudaModule module_;
    CUfunction kernel_;
    device::TopNSelectLaunch base_;
    std::vector<Area> areas_;
};

// A DeviceTopN when the sweep can use one, else nothing (every row is then
// copied back and ranked on the host).
std::optional<DeviceTopN> make_device_top_n(const CudaDriver& driver, const RankOrder& order, std::size_t top_n,
                                            bool keep_all_rows, std::uint64_t chunk, std::size_t slots,
                                            const ModuleSource& source);

}  // namespace btforge::cuda
