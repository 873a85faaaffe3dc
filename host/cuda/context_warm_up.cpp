#include "host/cuda/context_warm_up.h"

#include <algorithm>
#include <chrono>

namespace btforge::cuda {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

ContextWarmUp::ContextWarmUp(std::shared_ptr<const CudaDriver> driver, const std::vector<int>& devices)
    : driver_(std::move(driver)), devices_(devices), retained_(devices.size(), 0), ready_after_(devices.size(), 0.0) {
    threads_.reserve(devices_.size());
    const auto started = Clock::now();
    for (std::size_t d = 0; d < devices_.size(); ++d) {
        // A thread that cannot be started only means that device's context
        // is created by the sweep itself; the ones already started are
        // joined by wait() and the destructor.
        try {
            threads_.emplace_back([this, d, started] {
                CUdevice device = 0;
                CUcontext context = nullptr;
                const DriverApi& api = driver_->api();
                if (api.cuDeviceGet(&device, devices_[d]) == CUDA_SUCCESS &&
                    api.cuDevicePrimaryCtxRetain(&context, device) == CUDA_SUCCESS) {
                    retained_[d] = 1;
                }
                ready_after_[d] = std::chrono::duration<double>(Clock::now() - started).count();
            });
        } catch (...) {
            break;
        }
    }
}

double ContextWarmUp::wait() {
    const std::lock_guard<std::mutex> lock(wait_mutex_);
    const auto started = Clock::now();
    for (std::thread& t : threads_) {
        if (t.joinable()) t.join();
    }
    creation_seconds_ = ready_after_.empty() ? 0.0 : *std::max_element(ready_after_.begin(), ready_after_.end());
    return std::chrono::duration<double>(Clock::now() - started).count();
}

void ContextWarmUp::release() {
    wait();
    const std::lock_guard<std::mutex> lock(wait_mutex_);
    const DriverApi& api = driver_->api();
    for (std::size_t d = 0; d < devices_.size(); ++d) {
        CUdevice device = 0;
        if (retained_[d] != 0 && api.cuDeviceGet(&device, devices_[d]) == CUDA_SUCCESS) {
            api.cuDevicePrimaryCtxRelease(device);
        }
        retained_[d] = 0;
    }
}

ContextWarmUp::~ContextWarmUp() { release(); }

}  // namespace btforge::cuda
