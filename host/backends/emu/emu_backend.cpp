#include "host/backends/emu/emu_backend.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "host/backends/emu/emu_kernels.h"
#include "host/backends/launch_tables.h"

namespace btforge {

namespace {

// The block size of the generated kernels' __launch_bounds__ (spec/
// generator.json), so a launch here has the shape a CUDA launch would.
constexpr unsigned kBlockSize = 128;
// Ordinals per launch: a few blocks, so the shared counter is not contended
// and progress and cancellation stay responsive.
constexpr std::uint64_t kChunk = 4 * kBlockSize;

}  // namespace

bool emu_supports(const std::string& strategy) { return emu::find_emu_kernel(strategy) != nullptr; }

SweepOutcome run_emu_sweep(const SweepJob& job, const SweepOptions& options) {
    auto started = std::chrono::steady_clock::now();
    emu::EmuKernel kernel = emu::find_emu_kernel(job.spec->name);
    if (kernel == nullptr) {
        std::string known;
        for (const emu::EmuKernelEntry& e : emu::emu_kernels()) known += (known.empty() ? "" : ", ") + std::string(e.strategy);
        throw std::runtime_error("generated/ has no sweep kernel for strategy '" + job.spec->name +
                                 "' (generated: " + known + "); add it to spec/generator.json and regenerate");
    }
    const LaunchTables tables = build_launch_tables(job);

    SweepOutcome outcome;
    outcome.combinations = job.space->count();
    if (options.max_combinations != 0) outcome.combinations = std::min(outcome.combinations, options.max_combinations);
    outcome.threads = std::max(1, options.threads);
    if (options.keep_all_rows) outcome.all.resize(outcome.combinations);

    std::atomic<std::uint64_t> next{0};
    std::mutex merge_mutex;
    TopN top(*options.rank_metric, options.top_n);
    std::exception_ptr failure;

    auto worker = [&] {
        try {
            TopN local(*options.rank_metric, options.top_n);
            std::vector<unsigned long long> ids(kChunk);
            std::vector<device::Metrics> rows(kChunk);
            while (true) {
                if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) break;
                std::uint64_t begin = next.fetch_add(kChunk);
                if (begin >= outcome.combinations) break;
                std::uint64_t end = std::min(begin + kChunk, outcome.combinations);
                std::size_t count = static_cast<std::size_t>(end - begin);
                for (std::size_t i = 0; i < count; ++i) ids[i] = job.space->combination_id(begin + i);
                device::SweepLaunch launch = tables.launch(std::span(ids.data(), count), rows.data());
                unsigned grid = static_cast<unsigned>((count + kBlockSize - 1) / kBlockSize);
                emu::emu_launch(kernel, launch, grid, kBlockSize);
                for (std::size_t i = 0; i < count; ++i) {
                    ResultRow row{ids[i], to_host(rows[i])};
                    local.offer(row);
                    if (options.keep_all_rows) outcome.all[begin + i] = row;
                }
                if (options.completed != nullptr) options.completed->fetch_add(end - begin);
            }
            std::lock_guard lock(merge_mutex);
            top.merge(local);
        } catch (...) {
            std::lock_guard lock(merge_mutex);
            if (!failure) failure = std::current_exception();
        }
    };
    std::vector<std::thread> pool;
    for (int i = 1; i < outcome.threads; ++i) pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
    outcome.cancelled = options.cancel != nullptr && options.cancel->load() && next.load() < outcome.combinations;
    outcome.top = top.sorted();
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return outcome;
}

}  // namespace btforge
