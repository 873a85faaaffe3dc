#include "host/cuda/nvrtc_library.h"

#include <cstdlib>
#include <iterator>

#include <dlfcn.h>

namespace btforge::cuda {

namespace {

constexpr const char* kLibraryNames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};

template <typename Fn>
bool resolve(void* library, const char* name, Fn& slot) {
    void* address = dlsym(library, name);
    if (address == nullptr) return false;
    slot = reinterpret_cast<Fn>(address);
    return true;
}

// The first missing required entry point, or nullptr.
const char* resolve_all(void* library, NvrtcApi& api) {
    if (!resolve(library, "nvrtcGetErrorString", api.nvrtcGetErrorString)) return "nvrtcGetErrorString";
    if (!resolve(library, "nvrtcVersion", api.nvrtcVersion)) return "nvrtcVersion";
    if (!resolve(library, "nvrtcCreateProgram", api.nvrtcCreateProgram)) return "nvrtcCreateProgram";
    if (!resolve(library, "nvrtcDestroyProgram", api.nvrtcDestroyProgram)) return "nvrtcDestroyProgram";
    if (!resolve(library, "nvrtcCompileProgram", api.nvrtcCompileProgram)) return "nvrtcCompileProgram";
    if (!resolve(library, "nvrtcGetProgramLogSize", api.nvrtcGetProgramLogSize)) return "nvrtcGetProgramLogSize";
    if (!resolve(library, "nvrtcGetProgramLog", api.nvrtcGetProgramLog)) return "nvrtcGetProgramLog";
    if (!resolve(library, "nvrtcGetPTXSize", api.nvrtcGetPTXSize)) return "nvrtcGetPTXSize";
    if (!resolve(library, "nvrtcGetPTX", api.nvrtcGetPTX)) return "nvrtcGetPTX";
    // Optional (see NvrtcApi): a half-resolved pair counts as absent.
    if (!resolve(library, "nvrtcGetCUBINSize", api.nvrtcGetCUBINSize) ||
        !resolve(library, "nvrtcGetCUBIN", api.nvrtcGetCUBIN)) {
        api.nvrtcGetCUBINSize = nullptr;
        api.nvrtcGetCUBIN = nullptr;
    }
    if (!resolve(library, "nvrtcGetNumSupportedArchs", api.nvrtcGetNumSupportedArchs) ||
        !resolve(library, "nvrtcGetSupportedArchs", api.nvrtcGetSupportedArchs)) {
        api.nvrtcGetNumSupportedArchs = nullptr;
        api.nvrtcGetSupportedArchs = nullptr;
    }
    return nullptr;
}

}  // namespace

std::vector<std::string> nvrtc_library_candidates() {
    std::vector<std::string> candidates(std::begin(kLibraryNames), std::end(kLibraryNames));
    std::vector<std::string> directories;
    if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != '\0') {
        directories.push_back(std::string(home) + "/lib64");
    }
    directories.push_back("/usr/local/cuda/lib64");
    for (const std::string& directory : directories) {
        for (const char* name : kLibraryNames) candidates.push_back(directory + "/" + name);
    }
    return candidates;
}

std::unique_ptr<NvrtcLibrary> NvrtcLibrary::open(std::string* why_not) {
    return open(nvrtc_library_candidates(), why_not);
}

std::unique_ptr<NvrtcLibrary> NvrtcLibrary::open(const std::vector<std::string>& candidates, std::string* why_not) {
    auto fail = [&](std::string reason) -> std::unique_ptr<NvrtcLibrary> {
        if (why_not != nullptr) *why_not = std::move(reason);
        return nullptr;
    };
    void* library = nullptr;
    std::string path;
    for (const std::string& candidate : candidates) {
        library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (library != nullptr) {
            path = candidate;
            break;
        }
    }
    if (library == nullptr) {
        // The first name is the one a user installs; listing every path
        // tried would bury that.
        const std::string wanted = candidates.empty() ? std::string(kLibraryNames[0]) : candidates.front();
        return fail("--jit needs NVRTC (" + wanted +
                    "): not found; install the CUDA runtime libraries or drop --jit");
    }
    std::unique_ptr<NvrtcLibrary> nvrtc(new NvrtcLibrary());
    nvrtc->library_ = library;
    nvrtc->path_ = path;
    if (const char* missing = resolve_all(library, nvrtc->api_); missing != nullptr) {
        return fail("--jit needs NVRTC: " + path + " lacks " + missing + " (too old or not NVRTC); drop --jit");
    }
    if (nvrtc->api_.nvrtcVersion(&nvrtc->major_, &nvrtc->minor_) != NVRTC_SUCCESS) {
        return fail("--jit needs NVRTC: nvrtcVersion failed in " + path);
    }
    return nvrtc;
}

NvrtcLibrary::~NvrtcLibrary() {
    if (library_ != nullptr) dlclose(library_);
}

std::string NvrtcLibrary::version() const { return std::to_string(major_) + "." + std::to_string(minor_); }

std::vector<int> NvrtcLibrary::supported_architectures() const {
    if (api_.nvrtcGetNumSupportedArchs == nullptr) return {};
    int count = 0;
    if (api_.nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0) return {};
    std::vector<int> archs(static_cast<std::size_t>(count));
    if (api_.nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) return {};
    return archs;
}

std::string NvrtcLibrary::error_string(nvrtcResult result) const {
    const char* text = api_.nvrtcGetErrorString(result);
    return text != nullptr ? text : "NVRTC error " + std::to_string(result);
}

}  // namespace btforge::cuda
