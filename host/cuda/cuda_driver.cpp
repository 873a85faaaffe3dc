#include "host/cuda/cuda_driver.h"

#include <dlfcn.h>

namespace btforge::cuda {

namespace {

// Each entry point is resolved by the symbol that implements it. The versioned names
// are those cuda.h maps the plain names to; the plain ones (cuEventElapsedTime
// rather than CUDA 12.8's cuEventElapsedTime_v2, same signature) are exported
// by every driver this binary can use, old ones included, so an old driver
// still gets as far as explaining that it is too old.
template <typename Fn>
bool resolve(void* library, const char* name, Fn& slot, std::string* missing) {
    void* address = dlsym(library, name);
    if (address == nullptr) {
        if (missing != nullptr && missing->empty()) *missing = name;
        return false;
    }
    slot = reinterpret_cast<Fn>(address);
    return true;
}

bool resolve_all(void* library, DriverApi& api, std::string* missing) {
    bool ok = true;
    ok &= resolve(library, "cuInit", api.cuInit, missing);
    ok &= resolve(library, "cuDriverGetVersion", api.cuDriverGetVersion, missing);
    ok &= resolve(library, "cuGetErrorName", api.cuGetErrorName, missing);
    ok &= resolve(library, "cuGetErrorString", api.cuGetErrorString, missing);
    ok &= resolve(library, "cuDeviceGetCount", api.cuDeviceGetCount, missing);
    ok &= resolve(library, "cuDeviceGet", api.cuDeviceGet, missing);
    ok &= resolve(library, "cuDeviceGetName", api.cuDeviceGetName, missing);
    ok &= resolve(library, "cuDeviceGetAttribute", api.cuDeviceGetAttribute, missing);
    ok &= resolve(library, "cuDeviceTotalMem_v2", api.cuDeviceTotalMem, missing);
    ok &= resolve(library, "cuDevicePrimaryCtxRetain", api.cuDevicePrimaryCtxRetain, missing);
    ok &= resolve(library, "cuDevicePrimaryCtxRelease_v2", api.cuDevicePrimaryCtxRelease, missing);
    ok &= resolve(library, "cuCtxSetCurrent", api.cuCtxSetCurrent, missing);
    ok &= resolve(library, "cuCtxSynchronize", api.cuCtxSynchronize, missing);
    ok &= resolve(library, "cuMemGetInfo_v2", api.cuMemGetInfo, missing);
    ok &= resolve(library, "cuMemAlloc_v2", api.cuMemAlloc, missing);
    ok &= resolve(library, "cuMemFree_v2", api.cuMemFree, missing);
    ok &= resolve(library, "cuMemHostAlloc", api.cuMemHostAlloc, missing);
    ok &= resolve(library, "cuMemFreeHost", api.cuMemFreeHost, missing);
    ok &= resolve(library, "cuMemcpyHtoD_v2", api.cuMemcpyHtoD, missing);
    ok &= resolve(library, "cuMemcpyDtoH_v2", api.cuMemcpyDtoH, missing);
    ok &= resolve(library, "cuMemcpyHtoDAsync_v2", api.cuMemcpyHtoDAsync, missing);
    ok &= resolve(library, "cuMemcpyDtoHAsync_v2", api.cuMemcpyDtoHAsync, missing);
    ok &= resolve(library, "cuStreamCreate", api.cuStreamCreate, missing);
    ok &= resolve(library, "cuStreamDestroy_v2", api.cuStreamDestroy, missing);
    ok &= resolve(library, "cuStreamSynchronize", api.cuStreamSynchronize, missing);
    ok &= resolve(library, "cuEventCreate", api.cuEventCreate, missing);
    ok &= resolve(library, "cuEventDestroy_v2", api.cuEventDestroy, missing);
    ok &= resolve(library, "cuEventRecord", api.cuEventRecord, missing);
    ok &= resolve(library, "cuEventSynchronize", api.cuEventSynchronize, missing);
    ok &= resolve(library, "cuEventElapsedTime", api.cuEventElapsedTime, missing);
    ok &= resolve(library, "cuModuleLoadDataEx", api.cuModuleLoadDataEx, missing);
    ok &= resolve(library, "cuModuleUnload", api.cuModuleUnload, missing);
    ok &= resolve(library, "cuModuleGetFunction", api.cuModuleGetFunction, missing);
    ok &= resolve(library, "cuLaunchKernel", api.cuLaunchKernel, missing);
    ok &= resolve(library, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
                  api.cuOccupancyMaxActiveBlocksPerMultiprocessor, missing);
    return ok;
}

}  // namespace

std::unique_ptr<CudaDriver> CudaDriver::open(std::string* why_not) {
    auto fail = [&](std::string reason) -> std::unique_ptr<CudaDriver> {
        if (why_not != nullptr) *why_not = std::move(reason);
        return nullptr;
    };
    void* library = dlopen(kDriverLibrary, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        const char* error = dlerror();
        return fail(std::string("no CUDA driver: cannot load ") + kDriverLibrary + " (" +
                    (error != nullptr ? error : "dlopen failed") + ")");
    }
    std::unique_ptr<CudaDriver> driver(new CudaDriver());
    std::string missing;
    if (!resolve_all(library, driver->api_, &missing)) {
        // Nothing of the driver ran yet, so unloading it is safe here.
        dlclose(library);
        return fail(std::string("the CUDA driver ") + kDriverLibrary + " lacks the entry point " + missing +
                    ": it is too old for this binary; update the NVIDIA driver");
    }
    driver->library_ = library;
    CUresult init = driver->api_.cuInit(0);
    if (init != CUDA_SUCCESS) return fail(driver->error_message(init, "cuInit"));
    int version = 0;
    if (driver->api_.cuDriverGetVersion(&version) != CUDA_SUCCESS) version = 0;
    driver->version_ = version;
    return driver;
}

// Note [libcuda stays loaded]
// The driver library is never dlclose'd once cuInit ran: it keeps threads
// and exit handlers of its own, and unloading it under them crashes at exit
// on some driver versions. The process holds one CudaDriver; leaving the
// library mapped until exit costs nothing.
CudaDriver::~CudaDriver() = default;

std::string CudaDriver::error_message(CUresult result, std::string_view attempt) const {
    const char* name = nullptr;
    const char* description = nullptr;
    if (api_.cuGetErrorName == nullptr || api_.cuGetErrorName(result, &name) != CUDA_SUCCESS) name = nullptr;
    if (api_.cuGetErrorString == nullptr || api_.cuGetErrorString(result, &description) != CUDA_SUCCESS) {
        description = nullptr;
    }
    return format_cuda_error(attempt, result, name, description);
}

void CudaDriver::check(CUresult result, std::string_view attempt) const {
    if (result != CUDA_SUCCESS) throw CudaError(result, error_message(result, attempt));
}

std::string format_cuda_version(int version) {
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace btforge::cuda
