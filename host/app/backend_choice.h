#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "host/app/thread_count.h"
#include "host/engine/cpu_sweep.h"
#include "host/validation/backtest_overfitting.h"
#include "host/validation/superior_predictive_ability.h"

namespace btforge {

namespace cuda {
class CudaDriver;
class ContextWarmUp;
class NvrtcLibrary;
struct CudaSweepStats;
}  // namespace cuda

// --backend, --device(s), --kernels, --jit, --jit-cache, --max-chunk, --kernel-variant: which engine
// runs a sweep.
struct BackendChoice {
    std::string name = "auto";
    int device = 0;
    std::string devices;  // --devices all|0,1,...: several GPUs share the sweep; "" = --device alone
    std::string kernels_file;
    bool jit = false;       // NVRTC for the exact device, with the disk cache (Note [JIT build])
    std::string jit_cache;  // --jit-cache DIR; "" = Note [JIT cache location]
    std::uint64_t max_chunk = std::uint64_t{1} << 18;  // --max-chunk: CudaRunOptions::max_chunk
    std::string kernel_variant = "auto";  // --kernel-variant: emu and cuda (Note [Kernel variants])
    // Note [Ranks and their GPUs]
    // Under --mpi, when neither --device nor --devices is given, the ranks of
    // a node deal its GPUs among themselves: the rank with index l among the
    // node's ranks takes GPU l mod (the GPUs it sees). One rank per GPU is
    // the layout to ask for (mpirun -n GPUS, or srun --gpus-per-task=1, which
    // leaves each rank one visible GPU: l mod 1 = 0). -1: not under MPI.
    int node_rank = -1;
};

// Note [Backend resolution]
// "auto" is cuda when the CUDA driver loads, the device exists and this
// binary carries a kernel for the strategy (or --kernels gives one), and cpu
// otherwise, said once on stderr with the reason. An explicit "cuda" that
// cannot run is an error naming the reason. The description says what ran:
// "cuda (NVIDIA H100 ..., sm_90, driver 13.0)", "cpu (16 threads)", ...
// --jit needs cuda: with --backend cpu or emu it is an error, and "auto"
// that cannot use the GPU is an error too rather than a silent CPU run; it
// also needs NVRTC, opened here so its absence is reported before any work.
// Each --jit run prints one line on stderr: NVRTC version, cache hit or
// miss, compile seconds, the cache file.
struct ResolvedBackend {
    std::string name;         // cpu, emu or cuda
    std::string description;  // what actually runs
    std::function<SweepOutcome(const SweepJob&, const SweepOptions&)> run;
    // Set when backend_computes_series: every series of a plan computed by
    // the backend's indicator kernels, in SeriesCache order (btforge parity).
    std::function<std::vector<double>(const SeriesCache&, const Market&)> series;
    // Set when the backend runs the CSCV scans itself (Note [CSCV scan on
    // the device]): cuda with the embedded kernels, on the first device.
    std::function<OverfittingReport(std::span<const PeriodStatistics>, int, const OverfittingOptions&)> overfitting;
    // Likewise the SPA's bootstrap passes (Note [Bootstrap maxima on the device]).
    BootstrapScanFactory bootstrap;
    std::shared_ptr<cuda::CudaDriver> driver;        // cuda only
    std::shared_ptr<cuda::CudaSweepStats> cuda_stats;  // cuda only: filled by each run
    // cuda only: the devices' contexts, being created since resolution
    // (Note [Contexts created ahead]); run() waits for them and counts the wait.
    std::shared_ptr<cuda::ContextWarmUp> contexts;
};

// What a backend says to the user that is neither a result nor an error
// (SweepHooks::notice): auto falling back to the CPU, the kernel a JIT built.
using BackendNotice = std::function<void(const std::string&)>;

// What resolution opened before a backend is made: the CUDA driver (cuda,
// and auto where a GPU is usable) and NVRTC (--jit).
struct BackendSetup {
    std::shared_ptr<cuda::CudaDriver> driver;
    std::shared_ptr<const cuda::NvrtcLibrary> nvrtc;
};

// Note [Backend registry]
// The backends a run can take, in one table: the name --backend and the
// Python keyword accept, what it means (the command line's --help reads it
// from here) and the function that makes it. A new backend is one entry
// and one make function; resolve_backend first
// applies the rules between the settings (--jit, --kernels, --max-chunk,
// the kernel variant) and turns auto into cuda or cpu, then makes the entry
// of that name. "auto" is resolution, not a backend.
struct BackendEntry {
    std::string_view name;
    std::string_view meaning;
    ResolvedBackend (*make)(const BackendChoice& choice, const std::string& strategy, int threads,
                            const BackendNotice& notice, const BackendSetup& setup);
};
std::span<const BackendEntry> backend_registry();
const BackendEntry* find_backend(std::string_view name);  // null: no such backend

// Throws a UsageError for settings that exclude each other or an unknown
// name; a backend asked for by name that cannot run is a std::runtime_error.
ResolvedBackend resolve_backend(const BackendChoice& choice, const std::string& strategy, int threads,
                                const BackendNotice& notice);

// Note [CSCV of a merge]
// `btforge merge` and rank 0 of `sweep --mpi` validate every shard's period
// statistics in one process (Note [Shards]). Their CSCV runs where a single
// process's would: --pbo-backend auto takes a GPU of the merging machine
// when one is usable (the CSCV kernels embedded, the driver loaded, the
// device there), cuda insists on it, cpu never looks. The numbers are the
// same bit for bit either way (Note [CSCV scan on the device]); only the
// time differs, about 50x for a million combinations (docs/PERFORMANCE.md,
// issue 15). Under --mpi, auto keeps a sweep on --backend cpu or emu on the
// CPU, as one process would; the GPU is rank 0's (Note [Ranks and their
// GPUs]). `merge --device N` picks it.
struct OverfittingBackend {
    // Unset: probability_of_backtest_overfitting on the CPU.
    std::function<OverfittingReport(std::span<const PeriodStatistics>, int, const OverfittingOptions&)> run;
    // The SPA's bootstrap passes on the same GPU (Note [Bootstrap maxima on
    // the device]); unset: on the CPU.
    BootstrapScanFactory bootstrap;
    std::string fallback;  // auto without a usable GPU: why, for the caller to say
};

// A usage error unless `pbo_backend` is auto, cpu or cuda (--pbo-backend).
void check_pbo_backend_name(const std::string& pbo_backend);

// `pbo_backend`: auto|cpu|cuda; `gpus`: the sweep's backend choice (its
// name and devices; node_rank as Note [Ranks and their GPUs] sets it).
// Throws std::runtime_error when cuda cannot run, naming why.
OverfittingBackend resolve_overfitting_backend(const std::string& pbo_backend, const BackendChoice& gpus);

// Whether `backend` computes its own indicator series (Note [Series on the
// device]): emu always, cuda when this binary embeds the indicator kernels
// (a build without nvcc runs --jit and --kernels FILE on series the CPU
// computed).
bool backend_computes_series(const ResolvedBackend& backend);

// The series cache a sweep on `backend` starts from: the plan alone when the
// backend computes its own series, else every series computed by the
// reference (SeriesCache::build).
SeriesCache series_for_backend(const ResolvedBackend& backend, const StrategySpec& spec, const Market& market,
                               std::span<const std::vector<double>> values, int threads);
// "15 indicator series (48 MiB) built on 2 threads in 0.05 s", or "... computed by the backend".
std::string describe_series(const SeriesCache& series, int threads);


}  // namespace btforge
