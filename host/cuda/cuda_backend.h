#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/cuda/cuda_driver.h"
#include "host/cuda/jit_compile.h"
#include "host/engine/cpu_sweep.h"

namespace btforge::cuda {

struct CudaRunOptions {
    int device = 0;                                     // ordinal, as `btforge devices` lists them
    std::optional<std::filesystem::path> kernel_file;   // --kernels FILE instead of the embedded fatbin
    std::uint64_t max_chunk = std::uint64_t{1} << 18;   // combinations per launch at most (Note [Chunk planning])
    std::uint64_t safety_margin_bytes = std::uint64_t{256} << 20;  // device memory left free
    // --jit: compile the embedded generated source with NVRTC for this
    // device, single-valued parameters folded in, through the disk cache
    // (Note [JIT build]); replaces the embedded fatbin. Not with kernel_file.
    std::optional<JitRequest> jit;
    // Several GPUs (Note [Several GPUs]): chunks are taken from this shared
    // counter of ordinals instead of a private one. Null for one GPU.
    std::atomic<std::uint64_t>* shared_next = nullptr;
    // How many devices share the counter: sizes the chunks in whole waves
    // (Note [Chunks for several GPUs] in chunk_plan.h).
    std::uint64_t sharing_devices = 1;
    // Several GPUs: where every device writes the outcome keys of its chunks
    // (Note [Distinct outcomes]), at their positions in the run; the
    // devices' chunks are disjoint. Null for one GPU: its SweepOutcome's.
    OutcomeKey* outcome_keys = nullptr;
    // --kernel-variant: a variant's name, or "auto" (or ""): the smallest
    // that holds the market (Note [Kernel variants]).
    std::string kernel_variant = "auto";
};

// One launch of the sweep kernel, for `btforge bench --chunk-timeline`: its
// device and combinations, and when its kernel started and stopped (events),
// in seconds from the start of the sweep (of all devices' sweeps at once for
// several GPUs).
struct ChunkTiming {
    int device = 0;
    std::uint64_t first = 0;   // ordinal of its first combination
    std::uint64_t count = 0;
    double start_seconds = 0.0;
    double stop_seconds = 0.0;
};

// What ran, for the report and `btforge bench`.
struct CudaSweepStats {
    int device_index = 0;
    std::string device_name;
    int compute_major = 0;
    int compute_minor = 0;
    int driver_version = 0;
    std::string kernel_source;      // "embedded fatbin (nvcc 13.0)" or the --kernels path
    std::string kernel_variant;     // "narrow (up to 16 symbols)" (Note [Kernel variants])
    std::string jit_log;            // what the driver's JIT said, when it compiled PTX
    double kernel_seconds = 0.0;    // sum of the kernels' own time (events), copies excluded
    double upload_seconds = 0.0;    // market, series and tables to the device, once
    double setup_seconds = 0.0;     // from the call to the first chunk: context, module, uploads, indicators
    double context_seconds = 0.0;   // the part of it until the context and the module are ready (JIT included)
    double allocation_seconds = 0.0;  // the part of it after the indicators: the chunks' buffers and streams
    bool indicators_on_device = false;  // the series were computed by the indicator kernels
    double indicator_seconds = 0.0;     // their kernels' time (events)
    std::size_t indicator_jobs = 0;     // (symbol, series) jobs
    std::uint64_t chunks = 0;       // launches
    std::uint64_t chunk_size = 0;   // combinations per launch
    std::uint64_t wave = 0;         // combinations the SMs hold at once
    std::uint64_t balanced_stripe = 0;  // several GPUs: Note [Chunks of equal cost]; 0 for one GPU
    std::vector<double> device_kernel_seconds;  // several GPUs: each device's kernel_seconds, in --devices order
    std::vector<ChunkTiming> chunk_timings;     // every launch, in launch order per device
    std::uint64_t device_bytes = 0; // allocated on the device for the sweep
    // --jit only (Note [JIT build]).
    bool jit = false;
    bool jit_cache_hit = false;
    double jit_compile_seconds = 0.0;   // 0 on a cache hit
    std::string jit_cache_file;         // "" when no cache directory is known
    std::string nvrtc_version;          // "13.0"
    std::size_t jit_fixed_parameters = 0;
};

// No CUDA driver could be opened; what() is CudaDriver::open's reason.
class CudaUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Note [CUDA sweep]
// The sweep of run_cpu_sweep on one GPU, same options and same outcome (top
// N ranked with ties by id, every row in ordinal order when asked, progress
// after each chunk, cancellation between chunks). The market, the indicator
// series and the decode tables go to the device once; then chunks of
// combination ids stream through two slots, each with its stream, pinned
// host buffers and device buffers, so the copy of chunk k+1 and the host's
// ranking of chunk k-1 overlap kernel k. For a top N below 1024 (and no
// --all-rows) each chunk's candidates are selected on the device (Note [Top N
// on the device]) and only they come back, to be ranked by the host's TopN;
// otherwise every row comes back. Period statistics come back when a slot is
// finished, through a small staging buffer (Note [Period statistics kept as
// they arrive]). A cancelled sweep returns cancelled = true and no rows (no
// partial result).
//
// Note [Series on the device]
// When the job's SeriesCache is only planned (SeriesCache::plan), the
// indicator series are computed on the device by generated/
// indicator_series.cu straight into the resident series buffer, before the
// first chunk (stats: indicators_on_device, indicator_seconds); the host
// never computes or copies them. A computed cache is uploaded as it is.
// Throws CudaError (a driver call failed, with the driver's name and
// description), ChunkPlanError (the device is too small), std::runtime_error
// (no kernel for the strategy, unreadable --kernels file, no such device).
SweepOutcome run_cuda_sweep(const CudaDriver& driver, const SweepJob& job, const SweepOptions& options,
                            const CudaRunOptions& cuda, CudaSweepStats* stats = nullptr);

// Note [Several GPUs]
// One host thread per device, each with its context, streams and a copy of
// the resident data, takes chunks from one shared counter of ordinals, so a
// slower device simply takes fewer chunks. Each returns its own top N by the
// total order of Note [Deterministic ranking]; merging them gives the top N
// one GPU would give. Every row (keep_all_rows) is kept only on one GPU.
// The sweep's time ends when the last device has its results (its own
// SweepOutcome::seconds, counted from the common start) plus the merge, as a
// single device's ends when its results are in: freeing device memory and
// contexts afterwards is in neither.
//
// The chunks: Note [Chunks for several GPUs] in chunk_plan.h. Chunks that
// shrink towards the end (remaining / (2 x devices), down to 16384) were
// measured and rejected: on 2 x H200 their small last launches left most SMs
// idle and the kernels took 2.79-2.83 s instead of 2.58-2.61 s
// (docs/PERFORMANCE.md).
SweepOutcome run_multi_gpu_sweep(const CudaDriver& driver, const SweepJob& job, const SweepOptions& options,
                                 const CudaRunOptions& cuda, const std::vector<int>& devices,
                                 std::vector<CudaSweepStats>* stats = nullptr);

// The same as run_cuda_sweep above, opening the driver first; throws
// CudaUnavailable without one.
SweepOutcome run_cuda_sweep(const SweepJob& job, const SweepOptions& options, const CudaRunOptions& cuda,
                            CudaSweepStats* stats = nullptr);

}  // namespace btforge::cuda
