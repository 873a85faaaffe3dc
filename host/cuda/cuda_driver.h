#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "host/cuda/cuda_api.h"
#include "host/cuda/cuda_error.h"

namespace btforge::cuda {

// The file name of the driver library btforge loads at run time.
inline constexpr const char* kDriverLibrary = "libcuda.so.1";

// The CUDA driver, loaded at run time (Note [Declaring the driver API
// ourselves]). One per process is enough; it is not copyable. Every call
// goes through check(), which turns a failure into a CudaError naming what
// was being attempted.
class CudaDriver {
public:
    // dlopen's libcuda.so.1, resolves every entry point and calls cuInit(0).
    // On failure returns nullptr and, when why_not is given, sets it to one
    // line: the library cannot be loaded (no NVIDIA driver), it lacks an
    // entry point (a driver too old for this binary), or cuInit failed (with
    // the driver's error name and description, e.g. CUDA_ERROR_NO_DEVICE).
    static std::unique_ptr<CudaDriver> open(std::string* why_not);

    CudaDriver(const CudaDriver&) = delete;
    CudaDriver& operator=(const CudaDriver&) = delete;
    ~CudaDriver();

    const DriverApi& api() const noexcept { return api_; }

    // Throws CudaError("<attempt>: <NAME> (<description>)") unless result is
    // CUDA_SUCCESS.
    void check(CUresult result, std::string_view attempt) const;
    std::string error_message(CUresult result, std::string_view attempt) const;

    // cuDriverGetVersion: the CUDA version the driver supports, 1000 * major
    // + 10 * minor (13000 for CUDA 13.0).
    int version() const noexcept { return version_; }

private:
    CudaDriver() = default;

    void* library_ = nullptr;
    DriverApi api_{};
    int version_ = 0;
};

// "13.0" for 13000.
std::string format_cuda_version(int version);

}  // namespace btforge::cuda
