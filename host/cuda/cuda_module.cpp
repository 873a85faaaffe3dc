#include "host/cuda/cuda_module.h"

#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

namespace btforge::cuda {

ModuleSource embedded_module_source(std::string origin, int driver_version, int compute_major, int compute_minor) {
    const EmbeddedKernelBuild& build = embedded_kernel_build();
    ModuleSource source;
    source.origin = std::move(origin);
    source.kind = KernelImageKind::fatbin;
    source.cuda_version = build.cuda_version;
    source.architectures = build.architectures;
    source.ptx_architecture = build.ptx_architecture;
    source.driver_version = driver_version;
    source.compute_major = compute_major;
    source.compute_minor = compute_minor;
    return source;
}

namespace {

// "13.0" -> 13000, the encoding of cuDriverGetVersion; 0 when unknown.
int parse_cuda_version(const std::string& version) {
    std::size_t dot = version.find('.');
    if (dot == std::string::npos) return 0;
    return std::atoi(version.c_str()) * 1000 + std::atoi(version.c_str() + dot + 1) * 10;
}

std::string compute_name(const ModuleSource& s) {
    return "compute capability " + std::to_string(s.compute_major) + "." + std::to_string(s.compute_minor) + " (sm_" +
           std::to_string(s.compute_major * 10 + s.compute_minor) + ")";
}

std::string driver_supports(const ModuleSource& s) {
    return "the driver found supports CUDA " + format_cuda_version(s.driver_version) + " (cuDriverGetVersion " +
           std::to_string(s.driver_version) + ")";
}

std::string needs_driver(const std::string& cuda_version) {
    std::string series = driver_series_for_cuda(cuda_version);
    return "CUDA " + cuda_version + " code needs a driver " +
           (series.empty() ? "that supports CUDA " + cuda_version + " or newer"
                           : "of the " + series + " series or newer");
}

int oldest_arch(const std::string& architectures) {
    int oldest = 0;
    std::size_t at = 0;
    while ((at = architectures.find("sm_", at)) != std::string::npos) {
        int n = std::atoi(architectures.c_str() + at + 3);
        if (oldest == 0 || n < oldest) oldest = n;
        at += 3;
    }
    return oldest;
}

}  // namespace

std::string driver_series_for_cuda(const std::string& cuda_version) {
    // The first driver of each toolkit release (CUDA toolkit release notes).
    static const std::pair<const char*, const char*> kSeries[] = {
        {"12.0", "525"}, {"12.1", "530"}, {"12.2", "535"}, {"12.3", "545"}, {"12.4", "550"},
        {"12.5", "555"}, {"12.6", "560"}, {"12.8", "570"}, {"12.9", "575"}, {"13.0", "580"},
    };
    for (const auto& [cuda, series] : kSeries) {
        if (cuda_version == cuda) return series;
    }
    return "";
}

std::string explain_module_load_failure(CUresult code, const std::string& driver_message, const std::string& jit_log,
                                        const ModuleSource& s) {
    std::string message = driver_message;
    const int toolkit = parse_cuda_version(s.cuda_version);
    const bool driver_older = toolkit != 0 && s.driver_version != 0 && s.driver_version < toolkit;
    if (code == CUDA_ERROR_UNSUPPORTED_PTX_VERSION) {
        message += ". This GPU, of " + compute_name(s) + ", has no prebuilt cubin in " + s.origin +
                   ", so the driver must JIT-compile its PTX, and the PTX is newer than the driver: " +
                   driver_supports(s);
        if (!s.cuda_version.empty()) {
            message += ", the PTX was built by CUDA " + s.cuda_version + ", and " + needs_driver(s.cuda_version) +
                       ". Update the NVIDIA driver, or rebuild btforge with a CUDA toolkit no newer than " +
                       format_cuda_version(s.driver_version);
        } else {
            message += ". Update the NVIDIA driver, or rebuild the PTX with a CUDA toolkit no newer than " +
                       format_cuda_version(s.driver_version);
        }
    } else if (code == CUDA_ERROR_NO_BINARY_FOR_GPU) {
        int oldest = oldest_arch(s.architectures);
        int sm = s.compute_major * 10 + s.compute_minor;
        if (oldest != 0 && sm < oldest) {
            message += ". This GPU, of " + compute_name(s) + ", is older than " + s.origin + " support: cubins " +
                       s.architectures + " and PTX " + s.ptx_architecture + "; the GPU path needs sm_" +
                       std::to_string(oldest) + " or newer (the CPU backend runs everywhere)";
        } else if (driver_older) {
            message += ". " + s.origin + " were built by CUDA " + s.cuda_version + " and " + driver_supports(s) +
                       ": " + needs_driver(s.cuda_version) + ". Update the NVIDIA driver";
        } else if (s.kind == KernelImageKind::cubin) {
            message += ". " + s.origin + " is a cubin for another GPU than this one, of " + compute_name(s) +
                       "; build it with -arch=sm_" + std::to_string(sm) + ", or pass PTX or a fatbin";
        } else {
            message += ". " + s.origin + " holds no code this GPU, of " + compute_name(s) + ", can run";
        }
    } else if (code == CUDA_ERROR_INVALID_IMAGE && driver_older) {
        message += ". " + s.origin + " were built by CUDA " + s.cuda_version + " and " + driver_supports(s) + ": " +
                   needs_driver(s.cuda_version) + ". Update the NVIDIA driver";
    }
    if (!jit_log.empty()) message += "\nJIT log:\n" + jit_log;
    return message;
}

// Note [Loading the kernels]
// cuModuleLoadDataEx takes the fatbin as it is: the driver picks the cubin
// that fits the current context's device and, when none does, JIT-compiles
// the PTX for it (cached by the driver in ~/.nv/ComputeCache). The PTX was
// built with --fmad=false, which shows in it as explicit .rn arithmetic that
// the JIT does not contract, so JIT-compiled code keeps SPEC §3's rounding.
CudaModule CudaModule::load(const CudaDriver& driver, std::span<const unsigned char> image, const ModuleSource& source) {
    constexpr std::size_t kLogBytes = 16 * 1024;
    std::vector<char> info(kLogBytes, '\0');
    std::vector<char> error(kLogBytes, '\0');
    CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    // The size options are passed (and returned: the bytes written) in the
    // pointer-sized slot itself, as the driver API specifies.
    void* values[] = {info.data(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(kLogBytes - 1)), error.data(),
                      reinterpret_cast<void*>(static_cast<std::uintptr_t>(kLogBytes - 1))};
    CUmodule module = nullptr;
    CUresult result = driver.api().cuModuleLoadDataEx(&module, image.data(), 4, options, values);
    std::string info_log(info.data());
    if (result != CUDA_SUCCESS) {
        std::string message = explain_module_load_failure(result, driver.error_message(result, "loading " + source.origin),
                                                          std::string(error.data()), source);
        throw CudaError(result, message);
    }
    return CudaModule(driver, module, source.origin, std::move(info_log));
}

CudaModule::CudaModule(const CudaDriver& driver, CUmodule module, std::string origin, std::string info_log)
    : driver_(&driver), module_(module), origin_(std::move(origin)), info_log_(std::move(info_log)) {}

CudaModule::CudaModule(CudaModule&& other) noexcept
    : driver_(other.driver_),
      module_(std::exchange(other.module_, nullptr)),
      origin_(std::move(other.origin_)),
      info_log_(std::move(other.info_log_)) {}

CudaModule::~CudaModule() {
    if (module_ != nullptr) driver_->api().cuModuleUnload(module_);
}

CUfunction CudaModule::function(const std::string& name) const {
    CUfunction function = nullptr;
    driver_->check(driver_->api().cuModuleGetFunction(&function, module_, name.c_str()),
                   "finding the kernel " + name + " in " + origin_);
    return function;
}

}  // namespace btforge::cuda
