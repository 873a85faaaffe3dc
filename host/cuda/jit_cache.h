#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "host/cuda/jit_source.h"
#include "host/cuda/kernel_image.h"

namespace btforge::cuda {

// A compiled kernel: a CUBIN for the exact device, or PTX (NUL-terminated,
// as cuModuleLoadDataEx wants it) when NVRTC cannot emit CUBIN.
struct JitImage {
    KernelImageKind kind = KernelImageKind::unknown;
    std::vector<unsigned char> bytes;
};

// Note [JIT cache location]
// $BTFORGE_CACHE_DIR, else $XDG_CACHE_HOME/btforge/jit, else
// $HOME/.cache/btforge/jit (empty variables count as unset); --jit-cache DIR
// overrides all three. Empty when none is set: then nothing is cached.
std::filesystem::path jit_cache_directory(const char* btforge_cache_dir, const char* xdg_cache_home,
                                          const char* home);
std::filesystem::path default_jit_cache_directory();  // the same, from the environment

// Note [JIT cache key]
// The hex SHA-256 of everything that decides the bytes NVRTC produces: the
// entry format version, the kernel source and every header (names and
// texts), the entry point, the option list (which holds the architecture and
// the folded parameters), the architecture again (explicitly, so a caller
// changing how options spell it cannot alias two devices) and the NVRTC
// version. Each field is length-prefixed, so no two different inputs
// serialize alike.
std::string jit_cache_key(const JitSource& source, const std::vector<std::string>& options,
                          std::string_view architecture, std::string_view nvrtc_version);

// Note [JIT cache entries]
// <directory>/<key>.btfjit holds an 88-byte header, then the payload:
//   magic "BTFJITCE" | format version u32 LE | image kind u32 LE (1 cubin,
//   2 ptx) | payload size u64 LE | hex SHA-256 of the payload (64 chars)
// It is written to "<entry>.tmp-<pid>-<n>" in the same directory, fsync'ed
// and rename()d over the entry: rename is atomic within a file system, so a
// concurrent reader sees no entry or a whole one, never a prefix, and two
// processes compiling the same kernel both write whole files (the last
// rename wins; both are equal). A reader that finds a wrong magic, version,
// kind, size or checksum has a corrupt entry (a disk error, a truncated
// copy, a foreign file): it is reported once, removed, and the kernel is
// compiled and written again. Temporaries a killed process left behind are
// removed by a later write (Note [Stale JIT temporaries] in jit_cache.cpp).
inline constexpr std::uint32_t kJitEntryFormat = 1;
inline constexpr std::size_t kJitEntryHeaderSize = 88;

std::string encode_jit_entry(const JitImage& image);
// Nothing, with `problem` set to why, when the bytes are not a valid entry.
std::optional<JitImage> decode_jit_entry(std::string_view bytes, std::string* problem);

class JitCache {
public:
    // Warnings (a corrupt entry, an unwritable directory) go to `warnings`,
    // one line each. An empty directory disables the cache.
    JitCache(std::filesystem::path directory, std::ostream& warnings);

    enum class Status { hit, miss, corrupt };
    struct Lookup {
        Status status = Status::miss;
        JitImage image;       // when hit
        std::string problem;  // when corrupt
    };

    const std::filesystem::path& directory() const noexcept { return directory_; }
    bool enabled() const noexcept { return !directory_.empty(); }
    std::filesystem::path entry_path(std::string_view key) const;

    // A corrupt entry is reported and removed before this returns.
    Lookup read(std::string_view key);
    // Creates the directory when needed. A failure is reported and returns
    // false: the sweep goes on with the image it has.
    bool write(std::string_view key, const JitImage& image);

private:
    std::filesystem::path directory_;
    std::ostream* warnings_;
};

}  // namespace btforge::cuda
