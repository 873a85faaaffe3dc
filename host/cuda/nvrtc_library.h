#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace btforge::cuda {

// Note [Declaring the NVRTC API ourselves]
// Like the driver (Note [Declaring the driver API ourselves]), NVRTC is
// opened with dlopen at run time, so the binary links no CUDA library and
// runs where NVRTC is absent (only --jit needs it). The declarations below
// are the few of nvrtc.h that btforge calls, checked against CUDA 13.0's
// header: nvrtcResult is a C enum (int-sized, NVRTC_SUCCESS = 0) and
// nvrtcProgram an opaque pointer. These entry points have kept their
// signatures since CUDA 11.1 (nvrtcGetCUBIN*, the newest of them).
using nvrtcResult = int;
inline constexpr nvrtcResult NVRTC_SUCCESS = 0;
inline constexpr nvrtcResult NVRTC_ERROR_COMPILATION = 6;
struct NvrtcProgramOpaque;
using nvrtcProgram = NvrtcProgramOpaque*;

struct NvrtcApi {
    const char* (*nvrtcGetErrorString)(nvrtcResult) = nullptr;
    nvrtcResult (*nvrtcVersion)(int*, int*) = nullptr;
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                                      const char* const*) = nullptr;
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram*) = nullptr;
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char* const*) = nullptr;
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, std::size_t*) = nullptr;
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char*) = nullptr;
    nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram, std::size_t*) = nullptr;
    nvrtcResult (*nvrtcGetPTX)(nvrtcProgram, char*) = nullptr;
    // Optional: absent before CUDA 11.1 (then the build falls back to PTX).
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, std::size_t*) = nullptr;
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char*) = nullptr;
    // Optional: absent before CUDA 11.2 (then the architecture is not checked first).
    nvrtcResult (*nvrtcGetNumSupportedArchs)(int*) = nullptr;
    nvrtcResult (*nvrtcGetSupportedArchs)(int*) = nullptr;
};

// The library names tried, in order: libnvrtc.so.13, .so.12 and .so through
// the loader's search path, then each in $CUDA_HOME/lib64 and
// /usr/local/cuda/lib64 (where the toolkit puts it, rarely on the path).
std::vector<std::string> nvrtc_library_candidates();

// NVRTC, loaded at run time. Not copyable; one per process is enough.
class NvrtcLibrary {
public:
    // Opens the first of nvrtc_library_candidates() that loads. On failure
    // returns nullptr and sets why_not (when given) to one line: not found
    // ("--jit needs NVRTC (libnvrtc.so.13): not found; install the CUDA
    // runtime libraries or drop --jit"), an entry point missing, or
    // nvrtcVersion failing.
    static std::unique_ptr<NvrtcLibrary> open(std::string* why_not);
    // The same over the given names or paths (tests name a missing one).
    static std::unique_ptr<NvrtcLibrary> open(const std::vector<std::string>& candidates, std::string* why_not);

    NvrtcLibrary(const NvrtcLibrary&) = delete;
    NvrtcLibrary& operator=(const NvrtcLibrary&) = delete;
    ~NvrtcLibrary();

    const NvrtcApi& api() const noexcept { return api_; }
    int major() const noexcept { return major_; }
    int minor() const noexcept { return minor_; }
    std::string version() const;                     // "13.0"
    const std::string& path() const noexcept { return path_; }  // the candidate that loaded
    bool has_cubin() const noexcept { return api_.nvrtcGetCUBIN != nullptr && api_.nvrtcGetCUBINSize != nullptr; }
    // The "sm_XY" architectures it compiles for, as 10 * major + minor;
    // empty when this NVRTC cannot say (older than 11.2).
    std::vector<int> supported_architectures() const;
    // "NVRTC_ERROR_COMPILATION" for 6.
    std::string error_string(nvrtcResult result) const;

private:
    NvrtcLibrary() = default;
    void* library_ = nullptr;
    NvrtcApi api_{};
    int major_ = 0;
    int minor_ = 0;
    std::string path_;
};

}  // namespace btforge::cuda
