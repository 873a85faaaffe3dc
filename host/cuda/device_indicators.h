#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "generated/btforge_layout.h"
#include "host/backends/indicator_jobs.h"
#include "host/cuda/cuda_driver.h"

namespace btforge::cuda {

// Bytes of device memory the indicator launches need besides the series
// buffer: own bars, own prices, the job tables and the scratch of one batch
// of jobs (at most max_scratch_bytes, at least one job).
std::size_t device_indicator_work_bytes(const IndicatorJobs& jobs, std::size_t max_scratch_bytes);

struct DeviceIndicatorRun {
    double seconds = 0.0;       // first launch to last, by events
    std::size_t jobs = 0;       // series jobs (symbol x series)
};

// Computes every series of `jobs` on the current context's device into
// `series` (jobs.series_slots * jobs.series_length doubles; the plan's
// series first, as SeriesCache lays them out), by the kernels of
// generated/indicator_series.cu (Note [Indicator launches]). `market` points
// at the market already on the device; `work` holds
// device_indicator_work_bytes(jobs, max_scratch_bytes). Synchronous.
// Throws CudaError, or std::runtime_error when the binary has no indicator
// kernels.
DeviceIndicatorRun compute_series_on_device(const CudaDriver& driver, const IndicatorJobs& jobs,
                                            const device::MarketView& market, CUdeviceptr series, CUdeviceptr work,
                                            std::size_t max_scratch_bytes);

}  // namespace btforge::cuda

namespace btforge::cuda {

// The whole round trip for checking (btforge parity): uploads the prices and
// tradable flags of `market` to device `device`, computes every series of
// `plan` there and copies them back, in SeriesCache order.
std::vector<double> compute_series_with_device(const CudaDriver& driver, int device, const SeriesCache& plan,
                                               const Market& market, DeviceIndicatorRun* run);

}  // namespace btforge::cuda
