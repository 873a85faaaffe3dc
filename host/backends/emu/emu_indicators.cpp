#include "host/backends/emu/emu_indicators.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <mutex>

#include "host/backends/emu/emu_kernels.h"
#include "host/backends/indicator_jobs.h"
#include "host/backends/launch_tables.h"
#include "host/engine/worker_threads.h"

namespace btforge {

namespace {

// Scratch of one worker's batch of series jobs.
constexpr std::size_t kScratchBytesPerWorker = std::size_t{64} << 20;
constexpr unsigned kGatherBlock = 64;
constexpr unsigned kSeriesBlock = 1;  // Note [One series job per warp] (host/cuda/device_indicators.cpp)

unsigned blocks_for(std::size_t threads, unsigned block) {
    return static_cast<unsigned>((threads + block - 1) / block);
}

}  // namespace

std::vector<double> emu_compute_series(const SeriesCache& plan, const Market& market, int threads) {
    const IndicatorJobs jobs = plan_indicator_jobs(plan, market);
    const emu::EmuIndicatorKernels kernels = emu::emu_indicator_kernels();
    std::vector<double> own_prices(static_cast<std::size_t>(device::kPriceArrays) * jobs.series_length);
    std::vector<double> series(jobs.series_slots * jobs.series_length, std::numeric_limits<double>::quiet_NaN());

    device::IndicatorLaunch launch{};
    launch.market = to_device(market.view());
    launch.own_bars = jobs.own_bars.data();
    launch.own_begin = jobs.own_begin.data();
    launch.own_prices = own_prices.data();
    launch.series = series.data();
    launch.breadth = jobs.breadth.data();
    launch.n_breadth = static_cast<int>(jobs.breadth.size());

    emu::emu_launch(kernels.gather_own_bars, launch, blocks_for(jobs.gather_threads(), kGatherBlock), kGatherBlock);

    // Series jobs write disjoint rows, so batches run on several threads.
    const auto batches = jobs.batches(kScratchBytesPerWorker);
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto worker = [&] {
        std::vector<double> scratch;
        for (std::size_t b = next++; b < batches.size(); b = next++) {
            try {
                const auto [begin, end] = batches[b];
                scratch.resize((end - begin) * jobs.scratch_per_job());
                device::IndicatorLaunch part = launch;
                part.jobs = jobs.jobs.data() + begin;
                part.n_jobs = static_cast<int>(end - begin);
                part.scratch = scratch.data();
                emu::emu_launch(kernels.indicator_series, part, blocks_for(end - begin, kSeriesBlock), kSeriesBlock);
            } catch (...) {
                std::lock_guard lock(failure_mutex);
                if (!failure) failure = std::current_exception();
            }
        }
    };
    // Note [Threads that cannot start]: fewer threads only take longer.
    run_worker_threads(std::max(1, std::min<int>(threads, static_cast<int>(batches.size()))), worker);
    if (failure) std::rethrow_exception(failure);

    if (!jobs.breadth.empty()) {
        emu::emu_launch_cooperative(kernels.breadth_series, launch, blocks_for(static_cast<std::size_t>(jobs.n_bars), device::kBreadthTile),
                                    static_cast<unsigned>(jobs.breadth.size()), device::kBreadthTile);
    }
    // The breadth EMA slots after the plan's series are scratch.
    series.resize(jobs.distinct_series * jobs.series_length);
    return series;
}

}  // namespace btforge
