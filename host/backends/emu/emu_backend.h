#pragma once

#include <string>
#include <string_view>

#include "host/engine/cpu_sweep.h"

namespace btforge {

// Whether generated/ has a kernel for `strategy` (the emu backend can run it).
bool emu_supports(const std::string& strategy);

// The sweep of run_cpu_sweep, run by the generated kernels compiled for the
// host (Note [Emu shim]) instead of the reference: same options, same
// outcome (top N, every row in ordinal order when asked, progress,
// cancellation), and, since every combination is still a pure function of
// its id (Note [Thread-count independence]), bit-identical results for any
// thread count. Throws std::runtime_error when generated/ has no kernel for
// the job's strategy. When the job's series are only planned
// (SeriesCache::computed() false), the generated indicator kernels compute
// them first (emu_compute_series), as the CUDA backend does on the device.
// The kernels are those of `kernel_variant` ("" or "auto": the smallest
// that holds the market; Note [Kernel variants]), which the outcome names.
SweepOutcome run_emu_sweep(const SweepJob& job, const SweepOptions& options, std::string_view kernel_variant = "");

}  // namespace btforge
