#pragma once

#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "host/cuda/cuda_driver.h"

namespace btforge::cuda {

// Note [Contexts created ahead]
// Creating a device's primary context takes 0.10-0.14 s on an H100 or H200,
// and two created at once take about 0.21 s each (docs/PERFORMANCE.md,
// "Several GPUs, third session"). None of it depends on the sweep, so the
// CLI starts it as soon as it knows the devices, on one thread per device,
// while it loads the market and builds the job; the sweep then retains a
// context that already exists. A sweep that starts before the contexts are
// ready waits for them, and that wait is counted in its time. A context that
// cannot be created is not reported here: the sweep retains it again and
// reports the driver's error itself. After the first sweep the contexts are
// released (release()), so that a later sweep of the same process starts
// from a fresh context, as it did before, even after a kernel fault left
// the first one unusable.
class ContextWarmUp {
public:
    ContextWarmUp(std::shared_ptr<const CudaDriver> driver, const std::vector<int>& devices);
    ContextWarmUp(const ContextWarmUp&) = delete;
    ContextWarmUp& operator=(const ContextWarmUp&) = delete;
    // Waits for the threads, then releases the contexts they retained.
    ~ContextWarmUp();
    // The same, at once; later calls do nothing.
    void release();

    // Blocks until every context exists (or failed); returns the seconds
    // this call waited.
    double wait();
    // Seconds from the start to the last context ready; valid after wait().
    double creation_seconds() const noexcept { return creation_seconds_; }
    std::size_t devices() const noexcept { return devices_.size(); }

private:
    std::shared_ptr<const CudaDriver> driver_;
    std::vector<int> devices_;
    std::vector<char> retained_;           // per device: 1 when its context was retained
    std::vector<double> ready_after_;      // per device: seconds from the start
    std::vector<std::thread> threads_;
    std::mutex wait_mutex_;  // wait() may be called from several threads
    double creation_seconds_ = 0.0;
};

}  // namespace btforge::cuda
