#include "host/io/atomic_file.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <limits.h>
#include <system_error>

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

bool AtomicFile::CancellableBuffer::stop() {
    if (!cancelled && cancel != nullptr && cancel->load(std::memory_order_relaxed)) cancelled = true;
    return cancelled;
}

AtomicFile::CancellableBuffer::int_type AtomicFile::CancellableBuffer::overflow(int_type c) {
    if (stop()) return traits_type::eof();
    return std::filebuf::overflow(c);
}

std::streamsize AtomicFile::CancellableBuffer::xsputn(const char_type* s, std::streamsize n) {
    if (stop()) return 0;
    return std::filebuf::xsputn(s, n);
}

AtomicFile::AtomicFile(std::filesystem::path destination, const std::atomic<bool>* cancel)
    : destination_(std::move(destination)), out_(&buffer_) {
    temporary_ = destination_;
    temporary_ += ".tmp-" + std::to_string(::getpid());
    buffer_.cancel = cancel;
    if (buffer_.open(temporary_, std::ios::out | std::ios::binary | std::ios::trunc) == nullptr) {
        const int error = errno;
        throw std::runtime_error("cannot write " + destination_.string() + ": " +
                                 (error != 0 ? std::strerror(error) : "cannot create a file there"));
    }
    registry_slot_ = register_temporary(temporary_);
}

AtomicFile::~AtomicFile() {
    if (!published_) {
        buffer_.close();
        std::error_code ignored;
        std::filesystem::remove(temporary_, ignored);
    }
    release_temporary(registry_slot_);
}

void AtomicFile::finish() {
    if (finished_) return;
    out_.flush();
    const bool closed = buffer_.close() != nullptr;
    finished_ = true;
    if (buffer_.cancelled) throw OutputCancelled(destination_);
    if (!out_ || !closed) throw std::runtime_error("writing " + destination_.string() + " failed (disk full?)");
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
