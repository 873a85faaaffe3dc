#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace btforge::cuda {

// What cuModuleLoadDataEx is given: a fatbin (cubins + PTX, what the build
// embeds), one cubin (ELF) or PTX text (NUL-terminated).
enum class KernelImageKind { fatbin, cubin, ptx, unknown };

// By the first bytes: the fatbin header magic 0xBA55ED50 (FATBIN_MAGIC, the
// header `nvcc -fatbin` writes; not FATBINC_MAGIC 0x466243B1, which marks the
// wrapper struct nvcc puts around it in host objects), "\x7fELF", or text
// holding a ".version" directive.
KernelImageKind classify_kernel_image(std::span<const unsigned char> image);
std::string_view kernel_image_kind_name(KernelImageKind kind);

inline constexpr unsigned kFatbinMagic = 0xBA55ED50u;

// The embedded module of the indicator kernels (generated/indicator_series.cu).
inline constexpr std::string_view kIndicatorModule = "indicators";

// Note [Embedded kernels]
// The build embeds each strategy's fatbin (${build}/kernels/<s>_sweep.fatbin,
// cmake/BtforgeGenerated.cmake) into the binary as a const array, through a
// source file that cmake/EmbedKernels.cmake generates; without nvcc that file
// holds an empty table and built_with_nvcc is false. The table is read-only
// data, 8-byte aligned, in the order of BTFORGE_STRATEGY_NAMES.
struct EmbeddedKernel {
    const char* strategy;  // a strategy's sweep kernel, or kIndicatorModule
    const unsigned char* data;
    std::size_t size;
};

// How the embedded kernels were built.
struct EmbeddedKernelBuild {
    bool built_with_nvcc;
    const char* cuda_version;      // nvcc's release, "13.0"; "" without nvcc
    const char* architectures;     // cubins inside, "sm_80 sm_86 sm_89 sm_90"
    const char* ptx_architecture;  // "compute_90": the PTX inside, JIT-compiled for later GPUs
    unsigned block_size;           // the kernels' __launch_bounds__ (spec/generator.json)
};

namespace detail {
// Defined by the generated source (Note [Embedded kernels]).
std::span<const EmbeddedKernel> embedded_kernel_table();
const EmbeddedKernelBuild& embedded_kernel_build_info();
}  // namespace detail

inline constexpr std::string_view kBuiltWithoutNvcc = "this binary was built without nvcc: no GPU kernels inside";

const EmbeddedKernelBuild& embedded_kernel_build();
std::span<const EmbeddedKernel> embedded_kernels();
// The fatbin of `strategy`, or nothing (see missing_kernel_reason).
std::optional<std::span<const unsigned char>> embedded_kernel_image(std::string_view strategy);
// Why embedded_kernel_image(strategy) is empty: kBuiltWithoutNvcc, or that
// this binary has no kernel for that strategy (naming the ones it has).
std::string missing_kernel_reason(std::string_view strategy);

// A kernel image read from a file (`--kernels FILE`): PTX, cubin or fatbin,
// as nvcc writes them. PTX gets the terminating NUL the driver needs.
struct KernelFile {
    std::string path;
    KernelImageKind kind = KernelImageKind::unknown;
    std::vector<unsigned char> bytes;
    std::span<const unsigned char> image() const { return bytes; }
};

// Throws std::runtime_error naming the file when it cannot be read, is empty
// or is none of the three kinds.
KernelFile load_kernel_file(const std::filesystem::path& path);

}  // namespace btforge::cuda
