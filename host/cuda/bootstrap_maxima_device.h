#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "host/cuda/cuda_driver.h"
#include "host/cuda/kernels/bootstrap_maxima.h"
#include "host/validation/superior_predictive_ability.h"

namespace btforge::cuda {

// The fatbin of host/cuda/kernels/bootstrap_maxima.cu, embedded by
// cmake/HostKernels.cmake; empty when the build had no nvcc (the passes
// then run on the CPU).
std::span<const unsigned char> embedded_bootstrap_maxima_image();

// The grid of a pass: blocks of resamples (blockIdx.x) by chunks of
// combinations (blockIdx.y), about `target_blocks` blocks in all.
struct SpaGrid {
    unsigned resample_blocks = 0;
    unsigned chunks = 0;
    std::uint64_t chunk = 0;  // combinations per chunk
};
SpaGrid spa_grid(int resamples, std::uint64_t combinations, unsigned target_blocks);

// The resamples as the launch reads them: position i of resample b at
// i * resamples + b (padded with count 0 past its length), and the lengths.
struct SpaResampleTable {
    std::vector<int> positions;
    std::vector<double> counts;
    std::vector<int> lengths;
};
SpaResampleTable spa_resample_table(std::span<const SparseResample> resamples);

// Runs a pass's blocks on the host, one after the other, each thread's
// phases in kernel order: the kernel's logic without a GPU (the tests run it).
void spa_scan_on_host(const device::SpaScanLaunch& launch, const SpaGrid& grid);

// Runs the variances' blocks on the host, one after the other (the tests).
void spa_variances_on_host(const device::SpaVarianceLaunch& launch);

// The maximum over the chunks of each (resample, recentering), ±0 made +0:
// what bootstrap_maxima returns.
std::vector<double> merge_spa_maxima(std::span<const double> partial, int resamples, int centers);

// Note [Bootstrap maxima on the device]: the SPA's variances and passes on
// device `device` (its primary context current on the calling thread): the
// factory returns null when the streams are too long (the CPU then runs
// them), throws
// CudaError when the device fails, std::runtime_error without a kernel.
BootstrapScanFactory bootstrap_scan_on_device(std::shared_ptr<const CudaDriver> driver, int device);

}  // namespace btforge::cuda
