#include "host/cuda/backtest_overfitting_device.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "host/cuda/cuda_devices.h"
#include "host/cuda/cuda_module.h"
#include "host/cuda/cuda_resources.h"
#include "host/cuda/kernel_image.h"

namespace btforge::cuda {

namespace {

// Blocks per multiprocessor the grid aims at: a few waves of the 13 blocks
// an SM holds (16 KiB of shared memory each), so the last wave's tail is short.
constexpr unsigned kBlocksPerMultiprocessor = 32;

template <class T>
DeviceBuffer upload(const CudaDriver& driver, std::span<const T> values, const std::string& purpose) {
    DeviceBuffer buffer(driver, values.size_bytes(), purpose);
    if (!values.empty()) {
        driver.check(driver.api().cuMemcpyHtoD(buffer.get(), values.data(), values.size_bytes()), "copying " + purpose);
    }
    return buffer;
}

template <class T>
T* device_pointer(const DeviceBuffer& buffer) {
    return reinterpret_cast<T*>(static_cast<std::uintptr_t>(buffer.get()));
}

}  // namespace

CscvGrid cscv_grid(unsigned splits, std::uint64_t combinations, unsigned target_blocks) {
    CscvGrid grid;
    grid.split_blocks = device::cscv_split_blocks(splits);
    const std::uint64_t wanted = std::max<std::uint64_t>(1, target_blocks / std::max(grid.split_blocks, 1u));
    const std::uint64_t chunks = std::min<std::uint64_t>(std::max<std::uint64_t>(combinations, 1), std::min<std::uint64_t>(wanted, 65535));
    grid.chunk = (combinations + chunks - 1) / chunks;
    grid.chunks = static_cast<unsigned>((combinations + grid.chunk - 1) / std::max<std::uint64_t>(grid.chunk, 1));
    return grid;
}

void cscv_scan_on_host(const device::CscvScanLaunch& launch, const CscvGrid& grid, bool ranks) {
    // The kernel's barriers separate a tile's load from its scan: here the
    // whole block loads before any thread scans.
    device::CscvScanShared shared{};
    for (unsigned chunk = 0; chunk < grid.chunks; ++chunk) {
        for (unsigned block = 0; block < grid.split_blocks; ++block) {
            std::vector<CscvBest> best(device::kCscvThreads, cscv_no_winner());
            std::vector<CscvCount> count(device::kCscvThreads, CscvCount{0, 0});
            const unsigned long long begin = device::cscv_chunk_begin(launch, chunk);
            const unsigned long long end = device::cscv_chunk_end(launch, chunk);
            for (unsigned long long first = begin; first < end; first += device::kCscvTile) {
                const unsigned long long last = std::min<unsigned long long>(first + device::kCscvTile, end);
                for (unsigned t = 0; t < device::kCscvThreads; ++t) device::cscv_load_tile(launch, shared, first, last, t);
                for (unsigned t = 0; t < device::kCscvThreads; ++t) {
                    const unsigned split = block * device::kCscvThreads + t;
                    if (split >= launch.splits) continue;
                    if (ranks) {
                        device::cscv_scan_ranks(launch, shared, first, last, split, count[t]);
                    } else {
                        device::cscv_scan_winners(launch, shared, first, last, split, best[t]);
                    }
                }
            }
            for (unsigned t = 0; t < device::kCscvThreads; ++t) {
                const unsigned split = block * device::kCscvThreads + t;
                if (split >= launch.splits) continue;
                const unsigned long long out = static_cast<unsigned long long>(chunk) * launch.splits + split;
                if (ranks) {
                    launch.counts[out] = count[t];
                } else {
                    launch.best[out] = best[t];
                }
            }
        }
    }
}

std::vector<CscvBest> merge_cscv_winners(std::span<const CscvBest> partial, unsigned splits) {
    std::vector<CscvBest> merged(splits, cscv_no_winner());
    for (std::size_t i = 0; i < partial.size(); ++i) {
        if (partial[i].index != kCscvNone) cscv_offer(merged[i % splits], partial[i].sharpe, partial[i].index);
    }
    return merged;
}

std::vector<CscvCount> merge_cscv_counts(std::span<const CscvCount> partial, unsigned splits) {
    std::vector<CscvCount> merged(splits, CscvCount{0, 0});
    for (std::size_t i = 0; i < partial.size(); ++i) {
        merged[i % splits].below += partial[i].below;
        merged[i % splits].equal += partial[i].equal;
    }
    return merged;
}

OverfittingReport probability_of_backtest_overfitting_on_device(const CudaDriver& driver, int device_index,
                                                                std::span<const PeriodStatistics> returns, int periods,
                                                                const OverfittingOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    const CscvInput input = pack_cscv_input(returns, periods);
    if (embedded_backtest_overfitting_image().empty()) {
        throw std::runtime_error("this btforge was built without nvcc: it has no CSCV kernel (use --pbo-backend cpu)");
    }
    const std::vector<std::uint32_t> masks = cscv_split_masks(periods);
    const auto splits = static_cast<unsigned>(masks.size());
    std::vector<unsigned> in_masks(splits), out_masks(splits);
    std::vector<long long> in_bars(splits), out_bars(splits);
    for (unsigned s = 0; s < splits; ++s) {
        in_masks[s] = masks[s];
        out_masks[s] = input.all_periods() & ~masks[s];
        in_bars[s] = input.bars_of(in_masks[s]);
        out_bars[s] = input.bars_of(out_masks[s]);
    }

    const DriverApi& api = driver.api();
    const DeviceInfo info = describe_device(driver, device_index);
    CUdevice device = 0;
    driver.check(api.cuDeviceGet(&device, device_index), "opening device " + std::to_string(device_index));
    PrimaryContext context(driver, device);
    const CudaModule module =
        CudaModule::load(driver, embedded_backtest_overfitting_image(),
                         embedded_module_source("the embedded CSCV kernels", driver.version(), info.compute_major,
                                                info.compute_minor));
    const CUfunction winners_kernel = module.function("btforge_cscv_winners");
    const CUfunction ranks_kernel = module.function("btforge_cscv_ranks");

    const CscvGrid grid =
        cscv_grid(splits, input.combinations, static_cast<unsigned>(info.multiprocessors) * kBlocksPerMultiprocessor);
    const std::size_t partials = static_cast<std::size_t>(grid.chunks) * splits;
    const DeviceBuffer sums = upload(driver, std::span<const CscvSums>(input.sums),
                                     "the period sums of " + std::to_string(input.combinations) + " combinations");
    const DeviceBuffer in_mask_buffer = upload(driver, std::span<const unsigned>(in_masks), "the in-sample masks");
    const DeviceBuffer out_mask_buffer = upload(driver, std::span<const unsigned>(out_masks), "the out-of-sample masks");
    const DeviceBuffer in_bar_buffer = upload(driver, std::span<const long long>(in_bars), "the in-sample bar counts");
    const DeviceBuffer out_bar_buffer = upload(driver, std::span<const long long>(out_bars), "the out-of-sample bar counts");
    const DeviceBuffer best_buffer(driver, partials * sizeof(CscvBest), "the CSCV winners of every chunk");
    const DeviceBuffer count_buffer(driver, partials * sizeof(CscvCount), "the CSCV rank counts of every chunk");

    device::CscvScanLaunch launch{};
    launch.sums = device_pointer<const CscvSums>(sums);
    launch.combinations = input.combinations;
    launch.chunk = grid.chunk;
    launch.splits = splits;
    launch.periods = periods;
    const Stream stream(driver);
    const Event start(driver);
    const Event stop(driver);
    double scan_seconds = 0.0;
    const auto run = [&](CUfunction kernel, const char* name) {
        void* parameters[] = {&launch};
        start.record(stream);
        driver.check(api.cuLaunchKernel(kernel, grid.split_blocks, grid.chunks, 1, device::kCscvThreads, 1, 1, 0,
                                        stream.get(), parameters, nullptr),
                     std::string("launching ") + name + " (" + std::to_string(grid.split_blocks) + " x " +
                         std::to_string(grid.chunks) + " blocks)");
        stop.record(stream);
        stream.synchronize(std::string("running ") + name);
        scan_seconds += elapsed_milliseconds(driver, start, stop) / 1000.0;
        if (options.scanned != nullptr) options.scanned->fetch_add(input.combinations);
    };
    OverfittingReport cancelled;
    cancelled.periods = periods;
    cancelled.combinations = input.combinations;
    cancelled.cancelled = true;

    // Scan 1: the in-sample winners.
    launch.masks = device_pointer<const unsigned>(in_mask_buffer);
    launch.bars = device_pointer<const long long>(in_bar_buffer);
    launch.best = device_pointer<CscvBest>(best_buffer);
    run(winners_kernel, "btforge_cscv_winners");
    std::vector<CscvBest> best(partials);
    driver.check(api.cuMemcpyDtoH(best.data(), best_buffer.get(), partials * sizeof(CscvBest)),
                 "copying the CSCV winners back");
    const std::vector<CscvBest> winners = merge_cscv_winners(best, splits);
    if (options.cancel != nullptr && options.cancel->load()) return cancelled;

    // Scan 2: the ranks of the winners' out-of-sample Sharpe ratios.
    const std::vector<double> thresholds = cscv_winner_out_of_sample(input, masks, winners);
    const DeviceBuffer threshold_buffer =
        upload(driver, std::span<const double>(thresholds), "the winners' out-of-sample Sharpe ratios");
    launch.masks = device_pointer<const unsigned>(out_mask_buffer);
    launch.bars = device_pointer<const long long>(out_bar_buffer);
    launch.thresholds = device_pointer<const double>(threshold_buffer);
    launch.best = nullptr;
    launch.counts = device_pointer<CscvCount>(count_buffer);
    run(ranks_kernel, "btforge_cscv_ranks");
    std::vector<CscvCount> count(partials);
    driver.check(api.cuMemcpyDtoH(count.data(), count_buffer.get(), partials * sizeof(CscvCount)),
                 "copying the CSCV rank counts back");
    if (options.cancel != nullptr && options.cancel->load()) return cancelled;

    OverfittingReport report = cscv_report(input, masks, winners, merge_cscv_counts(count, splits));
    report.device = info.name + " (cuda)";
    report.scan_seconds = scan_seconds;
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return report;
}

}  // namespace btforge::cuda
