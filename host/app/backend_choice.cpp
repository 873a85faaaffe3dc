#include "host/app/backend_choice.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "host/app/usage_error.h"
#include "host/backends/emu/emu_backend.h"
#include "host/backends/emu/emu_indicators.h"
#include "host/backends/kernel_variant.h"
#include "host/cuda/backtest_overfitting_device.h"
#include "host/cuda/bootstrap_maxima_device.h"
#include "host/cuda/context_warm_up.h"
#include "host/cuda/cuda_backend.h"
#include "host/cuda/cuda_devices.h"
#include "host/cuda/cuda_driver.h"
#include "host/cuda/device_indicators.h"
#include "host/cuda/jit_compile.h"
#include "host/cuda/jit_source.h"
#include "host/cuda/kernel_image.h"
#include "host/strategies/strategy_binding.h"

namespace btforge {

namespace {

// The GPU ordinals to run on: --devices (all, or a comma list), else --device.
std::vector<int> chosen_devices(const BackendChoice& c, int available) {
    std::vector<int> chosen;
    if (c.devices.empty() && c.node_rank >= 0 && available > 0) {
        // Note [Ranks and their GPUs]
        chosen.push_back(c.node_rank % available);
    } else if (c.devices.empty()) {
        chosen.push_back(c.device);
    } else if (c.devices == "all") {
        for (int d = 0; d < available; ++d) chosen.push_back(d);
    } else {
        std::stringstream list(c.devices);
        for (std::string item; std::getline(list, item, ',');) {
            std::size_t used = 0;
            int d = -1;
            try {
                d = std::stoi(item, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != item.size()) throw UsageError("--devices " + c.devices + ": '" + item + "' is not a GPU ordinal");
            if (std::find(chosen.begin(), chosen.end(), d) != chosen.end()) {
                throw UsageError("--devices " + c.devices + " names GPU " + item + " twice");
            }
            chosen.push_back(d);
        }
    }
    return chosen;
}

// Why the driver or the GPUs `c` chooses cannot be used here, or "" when
// they can (`driver` then holds the opened driver).
std::string devices_unavailable_reason(const BackendChoice& c, std::shared_ptr<cuda::CudaDriver>& driver) {
    std::string why;
    std::unique_ptr<cuda::CudaDriver> opened = cuda::CudaDriver::open(&why);
    if (!opened) return why;
    driver = std::move(opened);
    std::vector<cuda::DeviceInfo> devices = cuda::list_devices(*driver);
    if (devices.empty()) return "the CUDA driver reports no device";
    for (int d : chosen_devices(c, static_cast<int>(devices.size()))) {
        if (d < 0 || d >= static_cast<int>(devices.size())) {
            return "no CUDA device " + std::to_string(d) + " (this machine has " + std::to_string(devices.size()) + ")";
        }
    }
    return "";
}

// Why cuda cannot run this strategy here, or "" when it can.
std::string cuda_unavailable_reason(const BackendChoice& c, const std::string& strategy,
                                    std::shared_ptr<cuda::CudaDriver>& driver) {
    if (c.jit) {
        // --jit compiles the embedded source: the fatbin is not needed.
        if (!cuda::has_embedded_jit_source(strategy)) {
            return "no generated source for strategy '" + strategy + "' in this binary (--jit)";
        }
    } else if (c.kernels_file.empty() && !cuda::embedded_kernel_image(strategy)) {
        return cuda::missing_kernel_reason(strategy);
    }
    return devices_unavailable_reason(c, driver);
}

// The CSCV of Note [CSCV scan on the device] on `device`.
std::function<OverfittingReport(std::span<const PeriodStatistics>, int, const OverfittingOptions&)>
overfitting_on_device(std::shared_ptr<cuda::CudaDriver> driver, int device) {
    return [driver, device](std::span<const PeriodStatistics> returns, int periods, const OverfittingOptions& pbo) {
        return cuda::probability_of_backtest_overfitting_on_device(*driver, device, returns, periods, pbo);
    };
}

// ---- The backends (Note [Backend registry]) ------------------------------

ResolvedBackend make_cpu(const BackendChoice&, const std::string&, int threads, const BackendNotice&,
                         const BackendSetup&) {
    ResolvedBackend r;
    r.description = "cpu (" + thread_count_text(threads) + ")";
    r.run = &run_cpu_sweep;
    return r;
}

ResolvedBackend make_emu(const BackendChoice& c, const std::string& strategy, int threads, const BackendNotice&,
                         const BackendSetup&) {
    if (!emu_supports(strategy)) {
        throw std::runtime_error("no generated kernel for strategy '" + strategy + "' (--backend emu): " +
                                 missing_strategy_hint(strategy));
    }
    ResolvedBackend r;
    r.description = "emu (host-compiled generated code, " + thread_count_text(threads) + ")";
    r.run = [variant = c.kernel_variant](const SweepJob& job, const SweepOptions& sweep) {
        return run_emu_sweep(job, sweep, variant);
    };
    r.series = [threads](const SeriesCache& plan, const Market& market) {
        return emu_compute_series(plan, market, threads);
    };
    return r;
}

ResolvedBackend make_cuda(const BackendChoice& c, const std::string&, int, const BackendNotice& notice,
                          const BackendSetup& setup) {
    ResolvedBackend r;
    r.driver = setup.driver;
    const std::vector<int> devices =
        chosen_devices(c, static_cast<int>(cuda::list_devices(*r.driver).size()));
    r.description = "cuda (";
    if (devices.size() > 1) r.description += std::to_string(devices.size()) + " GPUs: ";
    for (std::size_t i = 0; i < devices.size(); ++i) {
        cuda::DeviceInfo device = cuda::describe_device(*r.driver, devices[i]);
        r.description += (i == 0 ? "" : "; ") + std::string("device ") + std::to_string(device.index) + ": " +
                         device.name + ", sm_" + std::to_string(device.compute_major) +
                         std::to_string(device.compute_minor);
    }
    r.description += ", driver " + cuda::format_cuda_version(r.driver->version()) + ")";
    cuda::CudaRunOptions options;
    options.device = c.device;
    options.max_chunk = c.max_chunk;
    options.kernel_variant = c.kernel_variant;
    if (!c.kernels_file.empty()) options.kernel_file = c.kernels_file;
    if (c.jit) {
        cuda::JitRequest jit;
        if (!c.jit_cache.empty()) jit.cache_directory = c.jit_cache;
        jit.nvrtc = setup.nvrtc;
        options.jit = std::move(jit);
        r.description.back() = ',';
        r.description += " NVRTC " + setup.nvrtc->version() + " --jit)";
    }
    r.cuda_stats = std::make_shared<cuda::CudaSweepStats>();
    r.contexts = std::make_shared<cuda::ContextWarmUp>(r.driver, devices);
    std::shared_ptr<cuda::ContextWarmUp> contexts = r.contexts;
    std::shared_ptr<cuda::CudaDriver> driver = r.driver;
    const int first_device = devices.front();
    if (cuda::embedded_kernel_image(cuda::kIndicatorModule)) {
        r.series = [driver, first_device](const SeriesCache& plan, const Market& market) {
            return cuda::compute_series_with_device(*driver, first_device, plan, market, nullptr);
        };
    }
    if (!cuda::embedded_backtest_overfitting_image().empty()) r.overfitting = overfitting_on_device(driver, first_device);
    if (!cuda::embedded_bootstrap_maxima_image().empty()) r.bootstrap = cuda::bootstrap_scan_on_device(driver, first_device);
    std::shared_ptr<cuda::CudaSweepStats> stats = r.cuda_stats;
    r.run = [driver, stats, options, devices, contexts, notice](const SweepJob& job, const SweepOptions& sweep) {
        // What is left of the contexts' creation belongs to this sweep's time.
        const double waited = contexts->wait();
        std::vector<cuda::CudaSweepStats> per_device;
        SweepOutcome outcome;
        try {
            outcome = cuda::run_multi_gpu_sweep(*driver, job, sweep, options, devices, &per_device);
        } catch (...) {
            contexts->release();
            throw;
        }
        contexts->release();  // Note [Contexts created ahead]: only the first sweep uses them
        outcome.seconds += waited;
        // The devices run at once: kernel-only time is the longest one's.
        *stats = per_device.front();
        for (const cuda::CudaSweepStats& d : per_device) {
            stats->kernel_seconds = std::max(stats->kernel_seconds, d.kernel_seconds);
            stats->setup_seconds = std::max(stats->setup_seconds, d.setup_seconds);
            stats->context_seconds = std::max(stats->context_seconds, d.context_seconds);
            stats->allocation_seconds = std::max(stats->allocation_seconds, d.allocation_seconds);
            stats->indicator_seconds = std::max(stats->indicator_seconds, d.indicator_seconds);
        }
        stats->chunks = 0;
        stats->device_kernel_seconds.clear();
        stats->chunk_timings.clear();
        for (const cuda::CudaSweepStats& d : per_device) {
            stats->chunks += d.chunks;
            if (per_device.size() > 1) stats->device_kernel_seconds.push_back(d.kernel_seconds);
            stats->chunk_timings.insert(stats->chunk_timings.end(), d.chunk_timings.begin(), d.chunk_timings.end());
        }
        // The description is fixed before the run; what the JIT did is
        // known only after it (Note [Backend resolution]).
        if (stats->jit && notice) {
            notice("kernel " + stats->kernel_source +
                   (stats->jit_cache_file.empty() ? std::string(", no cache directory")
                                                  : " (" + stats->jit_cache_file + ")"));
        }
        return outcome;
    };
    return r;
}

constexpr BackendEntry kBackends[] = {
    {"cpu", "the reference on all cores", &make_cpu},
    {"emu", "the generated kernels compiled for the host", &make_emu},
    {"cuda", "the generated kernels on the GPU", &make_cuda},
};

}  // namespace

std::span<const BackendEntry> backend_registry() { return kBackends; }

const BackendEntry* find_backend(std::string_view name) {
    for (const BackendEntry& entry : kBackends) {
        if (entry.name == name) return &entry;
    }
    return nullptr;
}

ResolvedBackend resolve_backend(const BackendChoice& c, const std::string& strategy, int threads,
                                const BackendNotice& notice) {
    std::string name = c.name;
    BackendSetup setup;
    if (c.jit) {
        if (name != "cuda" && name != "auto") {
            throw UsageError("--jit compiles GPU kernels: it needs --backend cuda, not --backend " + name);
        }
        if (!c.kernels_file.empty()) throw UsageError("--jit and --kernels exclude each other");
        std::string why_not;
        setup.nvrtc = cuda::NvrtcLibrary::open(&why_not);
        if (setup.nvrtc == nullptr) throw std::runtime_error(why_not);
    } else if (!c.jit_cache.empty()) {
        throw UsageError("--jit-cache is only used with --jit");
    }
    if (c.max_chunk == 0) throw UsageError("--max-chunk must be at least 1");
    try {
        check_kernel_variant_name(c.kernel_variant);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (name == "auto" || name == "cuda") {
        std::string why = cuda_unavailable_reason(c, strategy, setup.driver);
        if (!why.empty()) {
            if (name == "cuda" || c.jit) {
                throw std::runtime_error("--" + std::string(c.jit ? "jit" : "backend cuda") + " cannot run: " + why);
            }
            if (notice) notice("no usable GPU (" + why + "); running on the CPU");
            name = "cpu";
            setup.driver.reset();
        } else {
            name = "cuda";
        }
    }
    const BackendEntry* entry = find_backend(name);
    if (entry == nullptr) throw UsageError("unknown backend '" + c.name + "' for --backend");
    ResolvedBackend r = entry->make(c, strategy, threads, notice, setup);
    r.name = name;
    return r;
}

void check_pbo_backend_name(const std::string& pbo_backend) {
    if (pbo_backend != "auto" && pbo_backend != "cpu" && pbo_backend != "cuda") {
        throw UsageError("--pbo-backend must be auto, cpu or cuda, got '" + pbo_backend + "'");
    }
}

OverfittingBackend resolve_overfitting_backend(const std::string& pbo_backend, const BackendChoice& gpus) {
    // Note [CSCV of a merge]
    check_pbo_backend_name(pbo_backend);
    OverfittingBackend r;
    if (pbo_backend == "cpu" || (pbo_backend == "auto" && (gpus.name == "cpu" || gpus.name == "emu"))) return r;
    std::shared_ptr<cuda::CudaDriver> driver;
    const std::string why = cuda::embedded_backtest_overfitting_image().empty()
                                ? "this btforge was built without nvcc: it has no CSCV kernel"
                                : devices_unavailable_reason(gpus, driver);
    if (!why.empty()) {
        if (pbo_backend == "cuda") throw std::runtime_error("--pbo-backend cuda cannot run: " + why);
        r.fallback = why;
        return r;
    }
    const int device = chosen_devices(gpus, static_cast<int>(cuda::list_devices(*driver).size())).front();
    r.run = overfitting_on_device(driver, device);
    if (!cuda::embedded_bootstrap_maxima_image().empty()) r.bootstrap = cuda::bootstrap_scan_on_device(driver, device);
    return r;
}

bool backend_computes_series(const ResolvedBackend& backend) {
    if (backend.name == "emu") return true;
    return backend.name == "cuda" && cuda::embedded_kernel_image(cuda::kIndicatorModule).has_value();
}

SeriesCache series_for_backend(const ResolvedBackend& backend, const StrategySpec& spec, const Market& market,
                               std::span<const std::vector<double>> values, int threads) {
    if (!backend_computes_series(backend)) return SeriesCache::build(spec, market, values, threads);
    return SeriesCache::plan(spec, market, values);
}

std::string describe_series(const SeriesCache& series, int threads) {
    std::ostringstream out;
    out << series.distinct_series() << " indicator series (" << series.bytes() / (1024 * 1024) << " MiB)";
    if (series.computed()) {
        out << " built by the reference on " << thread_count_text(threads) << " in " << series.build_seconds() << " s";
    } else {
        out << ", computed by the backend's indicator kernels";
    }
    return out.str();
}

}  // namespace btforge
