#include "host/cuda/kernel_image.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "host/strategies/strategy_binding.h"

namespace btforge::cuda {

KernelImageKind classify_kernel_image(std::span<const unsigned char> image) {
    if (image.size() >= 4) {
        unsigned magic = static_cast<unsigned>(image[0]) | static_cast<unsigned>(image[1]) << 8 |
                         static_cast<unsigned>(image[2]) << 16 | static_cast<unsigned>(image[3]) << 24;
        if (magic == kFatbinMagic) return KernelImageKind::fatbin;
        if (image[0] == 0x7f && image[1] == 'E' && image[2] == 'L' && image[3] == 'F') return KernelImageKind::cubin;
    }
    // PTX is text; its header (comments, then .version/.target) comes first.
    std::span<const unsigned char> head = image.first(std::min<std::size_t>(image.size(), 4096));
    bool text = std::all_of(head.begin(), head.end(), [](unsigned char c) {
        return c == '\n' || c == '\r' || c == '\t' || c == '\0' || (c >= 0x20 && c < 0x7f);
    });
    static constexpr std::string_view kVersion = ".version";
    if (text && std::search(head.begin(), head.end(), kVersion.begin(), kVersion.end()) != head.end()) {
        return KernelImageKind::ptx;
    }
    return KernelImageKind::unknown;
}

std::string_view kernel_image_kind_name(KernelImageKind kind) {
    switch (kind) {
        case KernelImageKind::fatbin: return "fatbin";
        case KernelImageKind::cubin: return "cubin";
        case KernelImageKind::ptx: return "PTX";
        case KernelImageKind::unknown: break;
    }
    return "unknown";
}

const EmbeddedKernelBuild& embedded_kernel_build() { return detail::embedded_kernel_build_info(); }

std::span<const EmbeddedKernel> embedded_kernels() { return detail::embedded_kernel_table(); }

std::optional<std::span<const unsigned char>> embedded_kernel_image(std::string_view strategy) {
    for (const EmbeddedKernel& kernel : embedded_kernels()) {
        if (strategy == kernel.strategy) return std::span<const unsigned char>(kernel.data, kernel.size);
    }
    return std::nullopt;
}

std::string missing_kernel_reason(std::string_view strategy) {
    if (!embedded_kernel_build().built_with_nvcc) return std::string(kBuiltWithoutNvcc);
    std::string known;
    for (const EmbeddedKernel& kernel : embedded_kernels()) known += (known.empty() ? "" : ", ") + std::string(kernel.strategy);
    return "this binary has no GPU kernel for strategy '" + std::string(strategy) + "' (it has: " + known +
           "): " + missing_strategy_hint(strategy) + ", or pass --kernels FILE";
}

KernelFile load_kernel_file(const std::filesystem::path& path) {
    KernelFile file;
    file.path = path.string();
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(file.path + ": cannot open the kernel file (" + std::strerror(errno) + ")");
    file.bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) throw std::runtime_error(file.path + ": cannot read the kernel file");
    if (file.bytes.empty()) throw std::runtime_error(file.path + ": the kernel file is empty");
    file.kind = classify_kernel_image(file.bytes);
    if (file.kind == KernelImageKind::unknown) {
        throw std::runtime_error(file.path +
                                 ": not a PTX, cubin or fatbin file (as `nvcc -ptx`, `-cubin` or `-fatbin` write them)");
    }
    if (file.kind == KernelImageKind::ptx && file.bytes.back() != '\0') file.bytes.push_back('\0');
    return file;
}

}  // namespace btforge::cuda
