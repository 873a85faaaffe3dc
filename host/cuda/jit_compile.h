#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/backends/kernel_variant.h"
#include "host/cuda/jit_cache.h"
#include "host/cuda/jit_source.h"
#include "host/cuda/nvrtc_library.h"

namespace btforge::cuda {

// --jit: build the strategy's kernel with NVRTC for the exact device, the
// sweep's single-valued parameters folded in (CudaRunOptions::jit).
struct JitRequest {
    std::optional<std::filesystem::path> cache_directory;  // --jit-cache; else default_jit_cache_directory()
    std::shared_ptr<const NvrtcLibrary> nvrtc;              // opened by the caller; else opened when needed
    std::ostream* warnings = nullptr;                       // corrupt entries, unwritable cache; else std::cerr
};

// NVRTC rejected the source or the options; what() holds its log.
class JitCompileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Compiles `source` with `options` into an image (the kind follows the
// --gpu-architecture option: sm_XY gives CUBIN, compute_XY PTX). A real one
// is nvrtc_compiler(); tests inject fakes.
using JitCompiler = std::function<JitImage(const JitSource& source, const std::vector<std::string>& options)>;

// What build_jit_image did.
struct JitBuild {
    JitImage image;
    bool cache_hit = false;
    bool cache_was_corrupt = false;
    double compile_seconds = 0.0;      // 0 on a hit
    std::string key;
    std::filesystem::path cache_file;  // empty when the cache is disabled
};

// Note [JIT build]
// Looks the key (Note [JIT cache key]) up in the cache at `cache_directory`
// (empty: no cache); on a hit returns the stored image without compiling; on
// a miss, or a corrupt entry (reported and removed), compiles and writes the
// entry atomically (Note [JIT cache entries]).
JitBuild build_jit_image(const JitSource& source, const std::vector<std::string>& options,
                         const std::string& architecture, const std::string& compiler_version,
                         const std::filesystem::path& cache_directory, const JitCompiler& compile,
                         std::ostream& warnings);

// The NVRTC compiler: nvrtcCreateProgram with the headers of `source`,
// nvrtcCompileProgram, then the CUBIN (sm_XY) or the PTX (compute_XY, with
// its terminating NUL). Throws JitCompileError with NVRTC's log on failure.
JitImage nvrtc_compile(const NvrtcLibrary& nvrtc, const JitSource& source, const std::vector<std::string>& options);
JitCompiler nvrtc_compiler(std::shared_ptr<const NvrtcLibrary> nvrtc);

// Throws std::runtime_error when this NVRTC cannot target sm_<major><minor>
// (a GPU newer than the toolkit), saying which it can. No-op when the NVRTC
// cannot tell.
void check_nvrtc_supports(const NvrtcLibrary& nvrtc, int compute_major, int compute_minor);

// The whole path for one device: the embedded source of `strategy`, the
// options for sm_<major><minor> (CUBIN when this NVRTC can emit it, else
// PTX) and for the kernel variant (Note [Kernel variants]: its capacity and
// its entry points' suffix, which the source's entry_point then carries),
// whether the market is funding-free (Note [Markets without funding], folded
// by Note [Run shape] in generated/btforge_device.cuh), the cache directory
// of `request`, NVRTC as compiler. The symbol count is not folded beyond the
// single variant's 1: unrolled over 4 symbols, band_reversion ran 1.41x
// slower (docs/PERFORMANCE.md, "Run shape").
JitBuild build_strategy_kernel(const JitRequest& request, const std::string& strategy, int compute_major,
                               int compute_minor, const std::vector<FixedParameter>& fixed,
                               const KernelVariant& variant, bool funding_free, std::string* entry_point = nullptr);

// "NVRTC 13.0, cache hit, 0.00 s compile" for the report.
std::string describe_jit_build(const JitBuild& build, const std::string& nvrtc_version);

}  // namespace btforge::cuda
