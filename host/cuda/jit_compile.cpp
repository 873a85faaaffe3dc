#include "host/cuda/jit_compile.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

namespace btforge::cuda {

namespace {

// Destroys the program on every path out of nvrtc_compile.
class Program {
public:
    Program(const NvrtcLibrary& nvrtc, nvrtcProgram program) : nvrtc_(nvrtc), program_(program) {}
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    ~Program() { nvrtc_.api().nvrtcDestroyProgram(&program_); }
    nvrtcProgram get() const { return program_; }

private:
    const NvrtcLibrary& nvrtc_;
    nvrtcProgram program_;
};

std::string program_log(const NvrtcLibrary& nvrtc, nvrtcProgram program) {
    std::size_t size = 0;
    if (nvrtc.api().nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1) return "";
    std::string log(size, '\0');
    if (nvrtc.api().nvrtcGetProgramLog(program, log.data()) != NVRTC_SUCCESS) return "";
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
}

bool wants_cubin(const std::vector<std::string>& options) {
    return std::any_of(options.begin(), options.end(),
                       [](const std::string& o) { return o.rfind("--gpu-architecture=sm_", 0) == 0; });
}

}  // namespace

JitBuild build_jit_image(const JitSource& source, const std::vector<std::string>& options,
                         const std::string& architecture, const std::string& compiler_version,
                         const std::filesystem::path& cache_directory, const JitCompiler& compile,
                         std::ostream& warnings) {
    JitBuild build;
    build.key = jit_cache_key(source, options, architecture, compiler_version);
    JitCache cache(cache_directory, warnings);
    if (cache.enabled()) build.cache_file = cache.entry_path(build.key);
    JitCache::Lookup lookup = cache.read(build.key);
    if (lookup.status == JitCache::Status::hit) {
        build.cache_hit = true;
        build.image = std::move(lookup.image);
        return build;
    }
    build.cache_was_corrupt = lookup.status == JitCache::Status::corrupt;
    const auto started = std::chrono::steady_clock::now();
    build.image = compile(source, options);
    build.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    cache.write(build.key, build.image);
    return build;
}

JitImage nvrtc_compile(const NvrtcLibrary& nvrtc, const JitSource& source, const std::vector<std::string>& options) {
    const NvrtcApi& api = nvrtc.api();
    std::vector<const char*> header_texts;
    std::vector<const char*> header_names;
    for (const auto& [name, text] : source.headers) {
        header_names.push_back(name.c_str());
        header_texts.push_back(text.c_str());
    }
    nvrtcProgram raw = nullptr;
    nvrtcResult result = api.nvrtcCreateProgram(&raw, source.text.c_str(), source.name.c_str(),
                                                static_cast<int>(header_texts.size()), header_texts.data(),
                                                header_names.data());
    if (result != NVRTC_SUCCESS) {
        throw JitCompileError("NVRTC could not create a program for " + source.name + ": " +
                              nvrtc.error_string(result));
    }
    Program program(nvrtc, raw);
    std::vector<const char*> option_pointers;
    for (const std::string& option : options) option_pointers.push_back(option.c_str());
    result = api.nvrtcCompileProgram(program.get(), static_cast<int>(option_pointers.size()), option_pointers.data());
    if (result != NVRTC_SUCCESS) {
        std::string command;
        for (const std::string& option : options) command += " " + option;
        std::string log = program_log(nvrtc, program.get());
        throw JitCompileError("NVRTC " + nvrtc.version() + " failed to compile " + source.name + " (" +
                              nvrtc.error_string(result) + "; options:" + command + ")" +
                              (log.empty() ? std::string() : ":\n" + log));
    }
    JitImage image;
    std::size_t size = 0;
    if (wants_cubin(options)) {
        if (!nvrtc.has_cubin()) throw JitCompileError("NVRTC " + nvrtc.version() + " cannot emit CUBIN");
        result = api.nvrtcGetCUBINSize(program.get(), &size);
        if (result == NVRTC_SUCCESS && size > 0) {
            image.bytes.resize(size);
            result = api.nvrtcGetCUBIN(program.get(), reinterpret_cast<char*>(image.bytes.data()));
        }
        image.kind = KernelImageKind::cubin;
    } else {
        // The size counts the terminating NUL, which the driver needs.
        result = api.nvrtcGetPTXSize(program.get(), &size);
        if (result == NVRTC_SUCCESS && size > 0) {
            image.bytes.resize(size);
            result = api.nvrtcGetPTX(program.get(), reinterpret_cast<char*>(image.bytes.data()));
        }
        image.kind = KernelImageKind::ptx;
    }
    if (result != NVRTC_SUCCESS || image.bytes.empty()) {
        throw JitCompileError("NVRTC compiled " + source.name + " but returned no " +
                              std::string(kernel_image_kind_name(image.kind)) +
                              (result != NVRTC_SUCCESS ? ": " + nvrtc.error_string(result) : std::string()));
    }
    return image;
}

JitCompiler nvrtc_compiler(std::shared_ptr<const NvrtcLibrary> nvrtc) {
    return [nvrtc](const JitSource& source, const std::vector<std::string>& options) {
        return nvrtc_compile(*nvrtc, source, options);
    };
}

void check_nvrtc_supports(const NvrtcLibrary& nvrtc, int compute_major, int compute_minor) {
    const std::vector<int> archs = nvrtc.supported_architectures();
    if (archs.empty()) return;
    const int wanted = 10 * compute_major + compute_minor;
    if (std::find(archs.begin(), archs.end(), wanted) != archs.end()) return;
    const int newest = *std::max_element(archs.begin(), archs.end());
    throw std::runtime_error("NVRTC " + nvrtc.version() + " (" + nvrtc.path() + ") cannot compile for sm_" +
                             std::to_string(wanted) + " (it knows sm_" + std::to_string(archs.front()) + " to sm_" +
                             std::to_string(newest) + "); install a newer CUDA toolkit or drop --jit");
}

JitBuild build_strategy_kernel(const JitRequest& request, const std::string& strategy, int compute_major,
                               int compute_minor, const std::vector<FixedParameter>& fixed,
                               const KernelVariant& variant, bool funding_free, std::string* entry_point) {
    std::shared_ptr<const NvrtcLibrary> nvrtc = request.nvrtc;
    if (nvrtc == nullptr) {
        std::string why_not;
        nvrtc = NvrtcLibrary::open(&why_not);
        if (nvrtc == nullptr) throw std::runtime_error(why_not);
    }
    check_nvrtc_supports(*nvrtc, compute_major, compute_minor);
    JitSource source = embedded_jit_source(strategy);
    source.entry_point += std::string(variant.suffix);
    if (entry_point != nullptr) *entry_point = source.entry_point;
    std::vector<std::string> options = jit_compile_options(compute_major, compute_minor, nvrtc->has_cubin(), fixed);
    options.push_back("-DBTFORGE_SYMBOL_CAPACITY=" + std::to_string(variant.max_symbols));
    options.push_back("-DBTFORGE_KERNEL_SUFFIX=" + std::string(variant.suffix));
    options.push_back(std::string("-DBTFORGE_FIXED_funding_free=") + (funding_free ? "1" : "0"));
    const std::string architecture = "sm_" + std::to_string(compute_major) + std::to_string(compute_minor);
    const std::filesystem::path directory =
        request.cache_directory ? *request.cache_directory : default_jit_cache_directory();
    std::ostream& warnings = request.warnings != nullptr ? *request.warnings : std::cerr;
    return build_jit_image(source, options, architecture, "NVRTC " + nvrtc->version(), directory,
                           nvrtc_compiler(nvrtc), warnings);
}

std::string describe_jit_build(const JitBuild& build, const std::string& nvrtc_version) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f", build.compile_seconds);
    return "NVRTC " + nvrtc_version + ", " + std::string(kernel_image_kind_name(build.image.kind)) + ", cache " +
           (build.cache_hit ? "hit" : "miss") + ", " + seconds + " s compile";
}

}  // namespace btforge::cuda
