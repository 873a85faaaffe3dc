#pragma once

#include <span>
#include <string>

#include "host/cuda/cuda_driver.h"
#include "host/cuda/kernel_image.h"

namespace btforge::cuda {

// What is known about a module being loaded, for explaining a failure.
struct ModuleSource {
    std::string origin;               // "the embedded kernels of strategy 'default'", or the --kernels path
    KernelImageKind kind = KernelImageKind::unknown;
    std::string cuda_version;         // toolkit that built it, "13.0"; "" when unknown (a --kernels file)
    std::string architectures;        // its cubins, "sm_80 sm_90"; "" when unknown
    std::string ptx_architecture;     // "compute_90"; "" when unknown
    int driver_version = 0;           // cuDriverGetVersion
    int compute_major = 0;            // the device's
    int compute_minor = 0;
};

// The source of a fatbin embedded in this binary (embedded_kernel_build's
// toolkit and architectures), loaded under `driver_version` on a device of
// that compute capability (0, 0: not known).
ModuleSource embedded_module_source(std::string origin, int driver_version, int compute_major = 0,
                                    int compute_minor = 0);

// The message of a failed cuModuleLoadDataEx: the CudaError text
// ("loading <origin>: <NAME> (<description>)"), then, for the failures a
// user can act on, a plain explanation: PTX newer than the driver
// (CUDA_ERROR_UNSUPPORTED_PTX_VERSION: states the driver's CUDA version and
// the driver series the PTX needs, e.g. 580 for CUDA 13.0), no code for this
// GPU (CUDA_ERROR_NO_BINARY_FOR_GPU: a GPU older than the oldest cubin, or a
// driver too old for the image), and the JIT's error log when it has one.
// Pure, so it is tested without a GPU.
std::string explain_module_load_failure(CUresult code, const std::string& driver_message, const std::string& jit_log,
                                        const ModuleSource& source);

// The NVIDIA driver series that first supports a CUDA toolkit release
// ("13.0" -> "580"); "" for a release this table does not know.
std::string driver_series_for_cuda(const std::string& cuda_version);

// A loaded module. The driver picks the cubin for the current context's
// device from a fatbin or JIT-compiles its PTX (Note [Loading the kernels]).
class CudaModule {
public:
    // Needs a current context. Throws CudaError with the explanation above.
    static CudaModule load(const CudaDriver& driver, std::span<const unsigned char> image, const ModuleSource& source);

    CudaModule(CudaModule&& other) noexcept;
    CudaModule& operator=(CudaModule&&) = delete;
    CudaModule(const CudaModule&) = delete;
    ~CudaModule();

    // Throws CudaError naming the entry point and the image when it is absent.
    CUfunction function(const std::string& name) const;
    // What the JIT said while loading (empty for a cubin).
    const std::string& info_log() const noexcept { return info_log_; }

private:
    CudaModule(const CudaDriver& driver, CUmodule module, std::string origin, std::string info_log);
    const CudaDriver* driver_;
    CUmodule module_;
    std::string origin_;
    std::string info_log_;
};

}  // namespace btforge::cuda
