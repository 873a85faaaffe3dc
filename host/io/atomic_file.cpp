#include "host/io/atomic_file.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <limits.h>
#include <system_error>

#include <fcntl.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

namespace btforge {

namespace {

// The registry of open temporaries that remove_pending_temporaries() reads
// from a signal handler: fixed slots of plain characters, claimed and
// released through an atomic state, so the handler neither allocates nor
// follows a pointer that another thread may be freeing.
struct TemporarySlot {
    std::atomic<int> state{0};  // 0 free, 1 being filled, 2 holds an open temporary
    char path[PATH_MAX];
};
constexpr int kSlots = 32;
std::array<TemporarySlot, kSlots> g_temporaries;

int register_temporary(const std::filesystem::path& path) {
    const std::string& text = path.native();
    if (text.size() >= PATH_MAX) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!g_temporaries[i].state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(g_temporaries[i].path, text.c_str(), text.size() + 1);
        g_temporaries[i].state.store(2);
        return i;
    }
    return -1;  // more than kSlots open at once: a forced exit leaves this one
}

void release_temporary(int slot) {
    if (slot >= 0) g_temporaries[static_cast<std::size_t>(slot)].state.store(0);
}

}  // namespace

void remove_pending_temporaries() noexcept {
    for (TemporarySlot& slot : g_temporaries) {
        if (slot.state.load() == 2) ::unlink(slot.path);
    }
}

namespace {

// The pid of a "<name>.tmp-<pid>" or "<name>.bak-<pid>" file of `stem`, or 0.
pid_t leftover_pid(const std::string& file_name, const std::string& stem) {
    for (const char* kind : {".tmp-", ".bak-"}) {
        const std::string prefix = stem + kind;
        if (file_name.size() <= prefix.size() || file_name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string digits = file_name.substr(prefix.size());
        if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
        return static_cast<pid_t>(std::stol(digits));
    }
    return 0;
}

bool process_is_gone(pid_t pid) { return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH; }

}  // namespace

int open_unnamed_file(const std::filesystem::path& directory, int access) {
#ifdef O_TMPFILE
    return ::open(directory.c_str(), O_TMPFILE | access | O_CLOEXEC, 0666);
#else
    (void)directory;
    (void)access;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

int remove_stale_temporaries(const std::filesystem::path& destination) {
    const std::filesystem::path directory =
        destination.parent_path().empty() ? std::filesystem::path(".") : destination.parent_path();
    const std::string stem = destination.filename().string();
    int removed = 0;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
        const pid_t pid = leftover_pid(it->path().filename().string(), stem);
        if (pid != 0 && pid != ::getpid() && process_is_gone(pid)) {
            std::error_code ignored;
            if (std::filesystem::remove(it->path(), ignored)) ++removed;
        }
    }
    return removed;
}

AtomicFile::CancellableBuffer::CancellableBuffer() : buffer_(std::size_t{1} << 16) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
}

bool AtomicFile::CancellableBuffer::stop() {
    if (!cancelled && cancel != nullptr && cancel->load(std::memory_order_relaxed)) cancelled = true;
    return cancelled;
}

bool AtomicFile::CancellableBuffer::write_all(const char* data, std::size_t bytes) {
    while (bytes > 0 && !failed) {
        const ssize_t written = ::write(fd, data, bytes);
        if (written < 0) {
            if (errno == EINTR) continue;
            failed = true;
            break;
        }
        data += written;
        bytes -= static_cast<std::size_t>(written);
    }
    return !failed;
}

bool AtomicFile::CancellableBuffer::drain() {
    const std::size_t pending = static_cast<std::size_t>(pptr() - pbase());
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return write_all(buffer_.data(), pending);
}

AtomicFile::CancellableBuffer::int_type AtomicFile::CancellableBuffer::overflow(int_type c) {
    if (stop() || fd < 0 || !drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
        *pptr() = traits_type::to_char_type(c);
        pbump(1);
    }
    return traits_type::not_eof(c);
}

std::streamsize AtomicFile::CancellableBuffer::xsputn(const char_type* s, std::streamsize n) {
    if (stop() || fd < 0) return 0;
    const auto room = static_cast<std::streamsize>(epptr() - pptr());
    if (n <= room) {
        traits_type::copy(pptr(), s, static_cast<std::size_t>(n));
        pbump(static_cast<int>(n));
        return n;
    }
    // Larger than the room left: what is buffered, then the block itself.
    if (!drain() || !write_all(s, static_cast<std::size_t>(n))) return 0;
    return n;
}

int AtomicFile::CancellableBuffer::sync() { return (fd >= 0 && !stop() && drain()) ? 0 : -1; }

bool AtomicFile::CancellableBuffer::close() {
    if (fd < 0) return !failed;
    const bool drained = stop() ? false : drain();
    const bool closed = ::close(fd) == 0;
    fd = -1;
    return drained && closed && !failed;
}

AtomicFile::AtomicFile(std::filesystem::path destination, const std::atomic<bool>* cancel)
    : destination_(std::move(destination)), out_(&buffer_) {
    temporary_ = destination_;
    temporary_ += ".tmp-" + std::to_string(::getpid());
    buffer_.cancel = cancel;
    remove_stale_temporaries(destination_);  // Note [Temporaries a killed run leaves]
    const std::filesystem::path directory =
        destination_.parent_path().empty() ? std::filesystem::path(".") : destination_.parent_path();
    // Linking an unnamed file in needs /proc/self/fd (linkat with
    // AT_EMPTY_PATH needs a privilege): without it the temporary is named.
    static const bool can_link = ::access("/proc/self/fd", X_OK) == 0;
    int fd = can_link ? open_unnamed_file(directory, O_WRONLY) : -1;
    int error = can_link ? errno : EOPNOTSUPP;
    // Permissions and missing directories are the same for a named file;
    // only a file system without O_TMPFILE falls back to one.
    if (fd < 0 && error != EACCES && error != ENOENT && error != ENOTDIR && error != EROFS && error != ENOSPC) {
        fd = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        error = errno;
        if (fd >= 0) registry_slot_ = register_temporary(temporary_);
    } else {
        unnamed_ = fd >= 0;
    }
    if (fd < 0) {
        throw std::runtime_error("cannot write " + destination_.string() + ": " +
                                 (error != 0 ? std::strerror(error) : "cannot create a file there"));
    }
    buffer_.fd = fd;
}

AtomicFile::~AtomicFile() {
    if (!published_) {
        buffer_.close();
        if (!unnamed_) {
            std::error_code ignored;
            std::filesystem::remove(temporary_, ignored);
        }
    }
    release_temporary(registry_slot_);
}

void AtomicFile::link_unnamed() {
    // Note [Temporaries a killed run leaves]: the name is given while the
    // descriptor is still open (an unnamed file closed is gone). A file of
    // that name can only be a dead process's of the same pid.
    const std::string source = "/proc/self/fd/" + std::to_string(buffer_.fd);
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (::linkat(AT_FDCWD, source.c_str(), AT_FDCWD, temporary_.c_str(), AT_SYMLINK_FOLLOW) == 0) {
            unnamed_ = false;
            registry_slot_ = register_temporary(temporary_);
            return;
        }
        if (errno != EEXIST || attempt > 0) break;
        ::unlink(temporary_.c_str());
    }
    const int error = errno;
    throw std::runtime_error("cannot give the finished " + destination_.string() + " a name: " + std::strerror(error));
}

void AtomicFile::finish() {
    if (finished_) return;
    out_.flush();
    finished_ = true;
    const bool written = !buffer_.cancelled && static_cast<bool>(out_) && !buffer_.failed;
    if (written && unnamed_) {
        try {
            link_unnamed();
        } catch (...) {
            buffer_.close();
            throw;
        }
    }
    const bool closed = buffer_.close();
    if (buffer_.cancelled) throw OutputCancelled(destination_);
    if (!written || !closed) throw std::runtime_error("writing " + destination_.string() + " failed (disk full?)");
}

void AtomicFile::publish() {
    finish();
    std::error_code ec;
    std::filesystem::rename(temporary_, destination_, ec);
    if (ec) {
        throw std::runtime_error("cannot move the finished " + destination_.string() + " into place: " + ec.message());
    }
    published_ = true;
    release_temporary(registry_slot_);
    registry_slot_ = -1;
}

void AtomicFile::commit() { publish(); }

void write_file_atomically(const std::filesystem::path& destination, const std::string& content) {
    AtomicFile file(destination);
    file.stream() << content;
    file.commit();
}

}  // namespace btforge
