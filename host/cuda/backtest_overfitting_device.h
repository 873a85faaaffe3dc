#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "host/cuda/cuda_driver.h"
#include "host/cuda/kernels/backtest_overfitting.h"
#include "host/validation/backtest_overfitting.h"

namespace btforge::cuda {

// The fatbin of host/cuda/kernels/backtest_overfitting.cu, embedded by
// cmake/HostKernels.cmake; empty when the build had no nvcc (the CSCV then
// runs on the CPU).
std::span<const unsigned char> embedded_backtest_overfitting_image();

// The grid of one scan: chunks of combinations (blockIdx.y) so that the
// launch has about `target_blocks` blocks, at least one combination each.
struct CscvGrid {
    unsigned split_blocks = 0;
    unsigned chunks = 0;
    std::uint64_t chunk = 0;  // combinations per chunk
};
CscvGrid cscv_grid(unsigned splits, std::uint64_t combinations, unsigned target_blocks);

// Runs a scan's blocks on the host, one after the other, each thread's
// phases in kernel order: the kernels' logic without a GPU (the tests run
// it). `ranks` picks btforge_cscv_ranks, else btforge_cscv_winners.
void cscv_scan_on_host(const device::CscvScanLaunch& launch, const CscvGrid& grid, bool ranks);

// Merges the chunks' partial results (out[chunk * splits + split]).
std::vector<CscvBest> merge_cscv_winners(std::span<const CscvBest> partial, unsigned splits);
std::vector<CscvCount> merge_cscv_counts(std::span<const CscvCount> partial, unsigned splits);

// Note [CSCV scan on the device]: probability_of_backtest_overfitting with
// both scans on device `device` (its primary context made current on this
// thread); the same report, bit for bit, with `device` naming the GPU.
// Progress is counted per scan; cancellation is checked between the scans.
// Throws CudaError, or std::runtime_error when this binary has no kernel.
OverfittingReport probability_of_backtest_overfitting_on_device(const CudaDriver& driver, int device,
                                                                std::span<const PeriodStatistics> returns, int periods,
                                                                const OverfittingOptions& options);

}  // namespace btforge::cuda
