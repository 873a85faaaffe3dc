#include "host/cuda/jit_cache.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

#include "host/io/sha256.h"

namespace btforge::cuda {

namespace {

constexpr std::string_view kMagic = "BTFJITCE";
constexpr std::string_view kEntrySuffix = ".btfjit";
constexpr std::size_t kHashChars = 64;
static_assert(kJitEntryHeaderSize == 8 + 4 + 4 + 8 + kHashChars);

bool set(const char* value) { return value != nullptr && *value != '\0'; }

void put_u32(std::string& out, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) out += static_cast<char>((value >> (8 * i)) & 0xffu);
}
void put_u64(std::string& out, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) out += static_cast<char>((value >> (8 * i)) & 0xffu);
}
std::uint64_t get_le(std::string_view bytes, std::size_t offset, int width) {
    std::uint64_t value = 0;
    for (int i = 0; i < width; ++i) {
        value |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
    }
    return value;
}

// One length-prefixed field of the key (Note [JIT cache key]).
void add_field(std::string& out, std::string_view tag, std::string_view value) {
    out += tag;
    out += ':';
    out += std::to_string(value.size());
    out += ':';
    out += value;
    out += '\n';
}

std::uint32_t kind_code(KernelImageKind kind) {
    switch (kind) {
        case KernelImageKind::cubin: return 1;
        case KernelImageKind::ptx: return 2;
        default: return 0;
    }
}

std::string_view as_text(const std::vector<unsigned char>& bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// Unique among this process's threads and, through the pid, among processes.
std::filesystem::path temporary_name(const std::filesystem::path& entry) {
    static std::atomic<unsigned> counter{0};
    std::filesystem::path temporary = entry;
    temporary += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
    return temporary;
}

// Note [Stale JIT temporaries]
// A process killed between writing its temporary and the rename leaves
// "<key>.btfjit.tmp-<pid>-<n>" behind; nothing reads it, but nothing would
// remove it either. Each write removes the temporaries of this directory
// older than an hour: a writer that is still alive renames its file within
// seconds (one entry, fsync'ed), so an hour-old one has no owner.
constexpr std::chrono::hours kStaleTemporaryAge{1};

void remove_stale_temporaries(const std::filesystem::path& directory) {
    std::error_code ec;
    const auto now = std::filesystem::file_time_type::clock::now();
    for (std::filesystem::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.find(".btfjit.tmp-") == std::string::npos) continue;
        std::error_code ignored;
        const auto written = it->last_write_time(ignored);
        if (!ignored && now - written > kStaleTemporaryAge) std::filesystem::remove(it->path(), ignored);
    }
}

bool write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t written = ::write(fd, data.data(), data.size());
        if (written < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data.remove_prefix(static_cast<std::size_t>(written));
    }
    return true;
}

}  // namespace

std::filesystem::path jit_cache_directory(const char* btforge_cache_dir, const char* xdg_cache_home,
                                          const char* home) {
    if (set(btforge_cache_dir)) return btforge_cache_dir;
    if (set(xdg_cache_home)) return std::filesystem::path(xdg_cache_home) / "btforge" / "jit";
    if (set(home)) return std::filesystem::path(home) / ".cache" / "btforge" / "jit";
    return {};
}

std::filesystem::path default_jit_cache_directory() {
    return jit_cache_directory(std::getenv("BTFORGE_CACHE_DIR"), std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
}

std::string jit_cache_key(const JitSource& source, const std::vector<std::string>& options,
                          std::string_view architecture, std::string_view nvrtc_version) {
    std::string text;
    add_field(text, "format", std::to_string(kJitEntryFormat));
    add_field(text, "source-name", source.name);
    add_field(text, "source", source.text);
    for (const auto& [name, header] : source.headers) {
        add_field(text, "header-name", name);
        add_field(text, "header", header);
    }
    add_field(text, "entry", source.entry_point);
    for (const std::string& option : options) add_field(text, "option", option);
    add_field(text, "arch", architecture);
    add_field(text, "nvrtc", nvrtc_version);
    return sha256_hex(text);
}

std::string encode_jit_entry(const JitImage& image) {
    std::string out(kMagic);
    put_u32(out, kJitEntryFormat);
    put_u32(out, kind_code(image.kind));
    put_u64(out, image.bytes.size());
    out += sha256_hex(as_text(image.bytes));
    out += as_text(image.bytes);
    return out;
}

std::optional<JitImage> decode_jit_entry(std::string_view bytes, std::string* problem) {
    auto bad = [&](std::string why) -> std::optional<JitImage> {
        if (problem != nullptr) *problem = std::move(why);
        return std::nullopt;
    };
    if (bytes.size() < kJitEntryHeaderSize) {
        return bad("truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the header");
    }
    if (bytes.substr(0, kMagic.size()) != kMagic) return bad("not a btforge JIT cache entry (wrong magic)");
    const std::uint64_t format = get_le(bytes, 8, 4);
    if (format != kJitEntryFormat) return bad("entry format " + std::to_string(format) + ", expected " +
                                              std::to_string(kJitEntryFormat));
    JitImage image;
    switch (get_le(bytes, 12, 4)) {
        case 1: image.kind = KernelImageKind::cubin; break;
        case 2: image.kind = KernelImageKind::ptx; break;
        default: return bad("unknown image kind");
    }
    const std::uint64_t size = get_le(bytes, 16, 8);
    const std::string_view payload = bytes.substr(kJitEntryHeaderSize);
    if (payload.size() != size) {
        return bad("payload of " + std::to_string(payload.size()) + " bytes, header says " + std::to_string(size));
    }
    if (sha256_hex(payload) != bytes.substr(24, kHashChars)) return bad("payload checksum mismatch");
    image.bytes.assign(payload.begin(), payload.end());
    return image;
}

JitCache::JitCache(std::filesystem::path directory, std::ostream& warnings)
    : directory_(std::move(directory)), warnings_(&warnings) {}

std::filesystem::path JitCache::entry_path(std::string_view key) const {
    return directory_ / (std::string(key) + std::string(kEntrySuffix));
}

JitCache::Lookup JitCache::read(std::string_view key) {
    Lookup lookup;
    if (!enabled()) return lookup;
    const std::filesystem::path path = entry_path(key);
    std::ifstream in(path, std::ios::binary);
    if (!in) return lookup;  // no entry (or unreadable: then the write below reports)
    std::ostringstream content;
    content << in.rdbuf();
    in.close();
    std::optional<JitImage> image = decode_jit_entry(content.str(), &lookup.problem);
    if (image) {
        lookup.status = Status::hit;
        lookup.image = std::move(*image);
        return lookup;
    }
    lookup.status = Status::corrupt;
    *warnings_ << "btforge: JIT cache entry " << path.string() << " is corrupt (" << lookup.problem
               << "); removing it and compiling again\n";
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    return lookup;
}

bool JitCache::write(std::string_view key, const JitImage& image) {
    if (!enabled()) return false;
    auto fail = [&](const std::string& why) {
        *warnings_ << "btforge: cannot write the JIT cache in " << directory_.string() << " (" << why
                   << "); the compiled kernel is used but not kept\n";
        return false;
    };
    std::error_code ec;
    std::filesystem::create_directories(directory_, ec);
    if (ec) return fail(ec.message());
    remove_stale_temporaries(directory_);  // Note [Stale JIT temporaries]
    const std::filesystem::path entry = entry_path(key);
    const std::filesystem::path temporary = temporary_name(entry);
    const std::string data = encode_jit_entry(image);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return fail(std::strerror(errno));
    // fsync before the rename, so a crash cannot leave a renamed entry whose
    // data never reached the disk (it would read as corrupt, but why rebuild).
    const bool written = write_all(fd, data) && ::fsync(fd) == 0;
    const int saved_errno = errno;
    const bool closed = ::close(fd) == 0;
    if (!written || !closed) {
        std::filesystem::remove(temporary, ec);
        return fail(std::strerror(written ? errno : saved_errno));
    }
    std::filesystem::rename(temporary, entry, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        return fail(ec.message());
    }
    return true;
}

}  // namespace btforge::cuda
