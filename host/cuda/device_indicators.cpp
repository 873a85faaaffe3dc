#include "host/cuda/device_indicators.h"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "host/cuda/cuda_module.h"
#include "host/cuda/cuda_resources.h"
#include "host/cuda/kernel_image.h"

namespace btforge::cuda {

namespace {

constexpr unsigned kGatherBlock = 64;

// Note [One series job per warp]
// The series kernel runs each job alone in its warp (blocks of one thread).
// Jobs of different indicators in one warp diverge at the switch on the kind,
// and the warp then runs their loops over every bar one after the other: 72
// jobs of the large benchmark in warps of 32 took 198 ms (ncu, H100). Alone,
// every job's loop runs at once on its own SM partition.
constexpr unsigned kSeriesBlock = 1;
constexpr std::size_t kCheckScratchBytes = std::size_t{256} << 20;
constexpr std::size_t kAlignment = 256;

std::size_t aligned(std::size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

// Where each part of the work buffer starts.
struct WorkLayout {
    std::size_t own_bars = 0;
    std::size_t own_begin = 0;
    std::size_t own_prices = 0;
    std::size_t jobs = 0;
    std::size_t breadth = 0;
    std::size_t scratch = 0;
    std::size_t size = 0;
    std::vector<std::pair<std::size_t, std::size_t>> batches;  // IndicatorJobs::batches
};

WorkLayout work_layout(const IndicatorJobs& jobs, std::size_t max_scratch_bytes) {
    WorkLayout w;
    std::size_t at = 0;
    auto take = [&at](std::size_t bytes) {
        std::size_t offset = at;
        at += aligned(bytes);
        return offset;
    };
    w.own_bars = take(jobs.own_bars.size() * sizeof(int));
    w.own_begin = take(jobs.own_begin.size() * sizeof(int));
    w.own_prices = take(static_cast<std::size_t>(device::kPriceArrays) * jobs.series_length * sizeof(double));
    w.jobs = take(jobs.jobs.size() * sizeof(device::IndicatorJob));
    w.breadth = take(jobs.breadth.size() * sizeof(device::BreadthJob));
    w.batches = jobs.batches(max_scratch_bytes);
    std::size_t largest = 0;
    for (const auto& [begin, end] : w.batches) largest = std::max(largest, end - begin);
    w.scratch = take(largest * jobs.scratch_per_job() * sizeof(double));
    w.size = at;
    return w;
}

template <typename T>
T* pointer(CUdeviceptr base, std::size_t offset) {
    return reinterpret_cast<T*>(static_cast<std::uintptr_t>(base + offset));
}

unsigned blocks_for(std::size_t threads, unsigned block) { return static_cast<unsigned>((threads + block - 1) / block); }

}  // namespace

std::size_t device_indicator_work_bytes(const IndicatorJobs& jobs, std::size_t max_scratch_bytes) {
    return work_layout(jobs, max_scratch_bytes).size;
}

DeviceIndicatorRun compute_series_on_device(const CudaDriver& driver, const IndicatorJobs& jobs,
                                            const device::MarketView& market, CUdeviceptr series, CUdeviceptr work,
                                            std::size_t max_scratch_bytes) {
    const DriverApi& api = driver.api();
    std::optional<std::span<const unsigned char>> image = embedded_kernel_image(kIndicatorModule);
    if (!image) throw std::runtime_error("no indicator kernels: " + missing_kernel_reason(kIndicatorModule));
    CudaModule module =
        CudaModule::load(driver, *image, embedded_module_source("the embedded indicator kernels", driver.version()));
    CUfunction gather = module.function("btforge_gather_own_bars");
    CUfunction series_kernel = module.function("btforge_indicator_series");
    CUfunction breadth = module.function("btforge_breadth_series");

    const WorkLayout w = work_layout(jobs, max_scratch_bytes);
    auto upload = [&](std::size_t offset, const void* host, std::size_t bytes, const char* what) {
        if (bytes == 0) return;
        driver.check(api.cuMemcpyHtoD(work + offset, host, bytes), std::string("copying the ") + what + " to the device");
    };
    upload(w.own_bars, jobs.own_bars.data(), jobs.own_bars.size() * sizeof(int), "symbols' own bars");
    upload(w.own_begin, jobs.own_begin.data(), jobs.own_begin.size() * sizeof(int), "symbols' own-bar ranges");
    upload(w.jobs, jobs.jobs.data(), jobs.jobs.size() * sizeof(device::IndicatorJob), "indicator jobs");
    upload(w.breadth, jobs.breadth.data(), jobs.breadth.size() * sizeof(device::BreadthJob), "breadth jobs");
    // Copies from pageable memory may return before their DMA lands; the
    // kernels below run on a non-blocking stream that does not wait for it.
    driver.check(api.cuCtxSynchronize(), "finishing the copies of the indicator jobs");

    device::IndicatorLaunch launch{};
    launch.market = market;
    launch.own_bars = pointer<const int>(work, w.own_bars);
    launch.own_begin = pointer<const int>(work, w.own_begin);
    launch.own_prices = pointer<double>(work, w.own_prices);
    launch.series = pointer<double>(series, 0);
    launch.scratch = pointer<double>(work, w.scratch);
    launch.breadth = pointer<const device::BreadthJob>(work, w.breadth);
    launch.n_breadth = static_cast<int>(jobs.breadth.size());

    Stream stream(driver);
    Event start(driver);
    Event stop(driver);
    auto run = [&](CUfunction kernel, const char* name, device::IndicatorLaunch& args, unsigned grid_x, unsigned grid_y,
                   unsigned block) {
        void* parameters[] = {&args};
        driver.check(api.cuLaunchKernel(kernel, grid_x, grid_y, 1, block, 1, 1, 0, stream.get(), parameters, nullptr),
                     std::string("launching ") + name + " (" + std::to_string(grid_x) + "x" + std::to_string(grid_y) +
                         " blocks of " + std::to_string(block) + " threads)");
    };
    DeviceIndicatorRun result;
    result.jobs = jobs.jobs.size();
    start.record(stream);
    run(gather, "btforge_gather_own_bars", launch, blocks_for(jobs.gather_threads(), kGatherBlock), 1, kGatherBlock);
    for (const auto& [begin, end] : w.batches) {
        device::IndicatorLaunch part = launch;
        part.jobs = pointer<const device::IndicatorJob>(work, w.jobs) + begin;
        part.n_jobs = static_cast<int>(end - begin);
        run(series_kernel, "btforge_indicator_series", part, blocks_for(end - begin, kSeriesBlock), 1, kSeriesBlock);
    }
    // gridDim.y is at most 65535: BREADTH series go in slices of that many.
    constexpr std::size_t kMaxGridY = 65535;
    for (std::size_t first = 0; first < jobs.breadth.size(); first += kMaxGridY) {
        const std::size_t count = std::min(kMaxGridY, jobs.breadth.size() - first);
        device::IndicatorLaunch part = launch;
        part.breadth = launch.breadth + first;
        part.n_breadth = static_cast<int>(count);
        run(breadth, "btforge_breadth_series", part,
            blocks_for(static_cast<std::size_t>(jobs.n_bars), device::kBreadthTile), static_cast<unsigned>(count),
            device::kBreadthTile);
    }
    stop.record(stream);
    stream.synchronize("computing the indicator series on the device");
    result.seconds = elapsed_milliseconds(driver, start, stop) / 1000.0;
    return result;
}

std::vector<double> compute_series_with_device(const CudaDriver& driver, int device_ordinal, const SeriesCache& plan,
                                               const Market& market, DeviceIndicatorRun* run) {
    const DriverApi& api = driver.api();
    CUdevice device = 0;
    driver.check(api.cuDeviceGet(&device, device_ordinal), "opening device " + std::to_string(device_ordinal));
    PrimaryContext context(driver, device);
    const IndicatorJobs jobs = plan_indicator_jobs(plan, market);
    const std::size_t cells = jobs.series_length;
    // What the indicator kernels read of the market: prices and tradable.
    const std::vector<const std::vector<double>*> prices = {&market.open, &market.high, &market.low, &market.close,
                                                           &market.volume};
    const std::size_t price_bytes = aligned(cells * sizeof(double));
    const std::size_t tradable_bytes = aligned(cells);
    const std::size_t series_bytes = aligned(jobs.series_slots * cells * sizeof(double));
    const std::size_t work_bytes = device_indicator_work_bytes(jobs, kCheckScratchBytes);
    DeviceBuffer buffer(driver, prices.size() * price_bytes + tradable_bytes + series_bytes + work_bytes,
                        "the indicator check (market, series, work)");
    const CUdeviceptr base = buffer.get();
    const MarketView host_view = market.view();
    device::MarketView view{};
    view.n_symbols = host_view.n_symbols;
    view.n_bars = host_view.n_bars;
    view.bar_stride = host_view.bar_stride;
    std::size_t at = 0;
    const double** slots[] = {&view.open, &view.high, &view.low, &view.close, &view.volume};
    for (std::size_t p = 0; p < prices.size(); ++p) {
        driver.check(api.cuMemcpyHtoD(base + at, prices[p]->data(), cells * sizeof(double)),
                     "copying the market's prices to the device");
        *slots[p] = pointer<const double>(base, at);
        at += price_bytes;
    }
    driver.check(api.cuMemcpyHtoD(base + at, host_view.tradable, cells), "copying the market's tradable flags to the device");
    view.tradable = pointer<const unsigned char>(base, at);
    at += tradable_bytes;
    const CUdeviceptr series = base + at;
    at += series_bytes;
    DeviceIndicatorRun done = compute_series_on_device(driver, jobs, view, series, base + at, kCheckScratchBytes);
    std::vector<double> out(jobs.distinct_series * cells);
    if (!out.empty()) {
        driver.check(api.cuMemcpyDtoH(out.data(), series, out.size() * sizeof(double)),
                     "copying the indicator series back");
    }
    if (run != nullptr) *run = done;
    return out;
}

}  // namespace btforge::cuda
