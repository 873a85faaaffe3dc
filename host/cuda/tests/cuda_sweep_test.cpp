#include <dlfcn.h>

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "host/cuda/cuda_backend.h"
#include "host/engine/tests/small_sweep.h"

using namespace btforge;
using btforge::testing::SmallSweep;

namespace {

bool driver_library_present() {
    void* library = dlopen(cuda::kDriverLibrary, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) return false;
    dlclose(library);
    return true;
}


SweepOptions options_for(std::atomic<std::uint64_t>* completed, const std::atomic<bool>* cancel) {
    SweepOptions options;
    options.threads = 2;
    options.rank_metric = find_metric_column("total_return");
    options.top_n = 10;
    options.keep_all_rows = true;
    options.completed = completed;
    options.cancel = cancel;
    return options;
}

// 3 * 2 * 2 * 2 * 3 * 2 * 2 = 288 combinations: three chunks of 128.
const char* kDefaultGrid = R"({"strategy": "default", "parameters": {
    "ema_fast": {"values": [5, 8, 12]}, "ema_slow": {"values": [30, 60]}, "mode": {"values": [0, 1]},
    "adx_min": {"values": [0, 20]}, "sl_atr": {"values": [1.5, 2, 3]}, "breadth_min": {"values": [0, 0.5]},
    "trail_atr": {"values": [0, 1]}}})";

const char* kSmaGrid = R"({"strategy": "sma_cross", "parameters": {
    "fast_period": {"values": [5, 10, 20]}, "slow_period": {"values": [30, 50]},
    "stop_pct": {"values": [0.02, 0.05]}, "allow_short": {"values": [false, true]}}})";

bool same_bits(const Metrics& a, const Metrics& b) { return std::memcmp(&a, &b, sizeof(Metrics)) == 0; }

}  // namespace

TEST_CASE("CUDA sweep: bit-identical to the CPU reference, or plainly unavailable") {
    for (auto [spec_file, grid] : {std::pair{"default.json", kDefaultGrid},
                                   std::pair{"sma_cross.json", kSmaGrid}}) {
        CAPTURE(spec_file);
        SmallSweep sweep(spec_file, grid);
        std::atomic<std::uint64_t> completed{0};
        cuda::CudaRunOptions cuda_options;
        cuda_options.max_chunk = 128;
        if (!driver_library_present()) {
            CHECK_THROWS_WITH_AS(cuda::run_cuda_sweep(sweep.job, options_for(&completed, nullptr), cuda_options),
                                 doctest::Contains("libcuda.so.1"), cuda::CudaUnavailable);
            continue;
        }
        SweepOutcome reference = run_cpu_sweep(sweep.job, options_for(nullptr, nullptr));
        cuda::CudaSweepStats stats;
        SweepOutcome gpu = cuda::run_cuda_sweep(sweep.job, options_for(&completed, nullptr), cuda_options, &stats);
        MESSAGE("device " << stats.device_index << " " << stats.device_name << " (" << stats.compute_major << "."
                          << stats.compute_minor << "), " << stats.kernel_source << ", " << stats.chunks
                          << " chunks of " << stats.chunk_size << ", kernels " << stats.kernel_seconds * 1e3
                          << " ms, upload " << stats.upload_seconds * 1e3 << " ms, total " << gpu.seconds * 1e3
                          << " ms");
        CHECK_FALSE(gpu.cancelled);
        CHECK(gpu.combinations == sweep.space.count());
        CHECK(completed.load() == sweep.space.count());
        CHECK(stats.chunk_size == 128);
        CHECK(stats.chunks == (sweep.space.count() + 127) / 128);
        CHECK(stats.kernel_seconds > 0.0);
        REQUIRE(gpu.all.size() == reference.all.size());
        std::size_t identical = 0;
        for (std::size_t i = 0; i < reference.all.size(); ++i) {
            CHECK(gpu.all[i].combination_id == reference.all[i].combination_id);
            identical += same_bits(gpu.all[i].metrics, reference.all[i].metrics) ? 1 : 0;
        }
        CHECK(identical == reference.all.size());
        REQUIRE(gpu.top.size() == reference.top.size());
        for (std::size_t i = 0; i < reference.top.size(); ++i) {
            CHECK(gpu.top[i].combination_id == reference.top[i].combination_id);
        }
    }
}

TEST_CASE("CUDA sweep: cancelled before it starts, no partial result") {
    if (!driver_library_present()) return;  // covered by the unavailable case above
    SmallSweep sweep("sma_cross.json", kSmaGrid);
    std::atomic<bool> cancel{true};
    std::atomic<std::uint64_t> completed{0};
    SweepOutcome outcome = cuda::run_cuda_sweep(sweep.job, options_for(&completed, &cancel), cuda::CudaRunOptions{});
    CHECK(outcome.cancelled);
    CHECK(outcome.top.empty());
    CHECK(outcome.all.empty());
    CHECK(completed.load() == 0);
}

TEST_CASE("CUDA sweep: a --kernels file that is not a kernel is refused before the device is touched") {
    if (!driver_library_present()) return;
    SmallSweep sweep("sma_cross.json", kSmaGrid);
    cuda::CudaRunOptions cuda_options;
    cuda_options.kernel_file = "/nonexistent/btforge.fatbin";
    CHECK_THROWS_WITH_AS(cuda::run_cuda_sweep(sweep.job, options_for(nullptr, nullptr), cuda_options),
                         doctest::Contains("/nonexistent/btforge.fatbin"), std::runtime_error);
}
