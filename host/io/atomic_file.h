#pragma once

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace btforge {

// Note [No half-written outputs]
// Every file btforge produces is written to a temporary sibling
// ("<name>.tmp-<pid>") and renamed over the destination only after the stream
// was flushed and closed without error. A failure or an exception in between
// removes the temporary, so a reader sees the old file or the complete new
// one, never a prefix. Temporaries are opened before the work that fills
// them (OutputTransaction), so a directory that cannot be written is found
// first; while one is open its name is registered for
// remove_pending_temporaries(), which a forced exit (a second Ctrl-C) calls.

// Thrown by AtomicFile::finish when its cancel flag was raised while it was
// written (Ctrl-C during a large result): from then on every write failed,
// so the stream went bad and a writer checking it stopped early; the
// temporaries go, as for any other failure.
class OutputCancelled : public std::runtime_error {
public:
    explicit OutputCancelled(const std::filesystem::path& file)
        : std::runtime_error("interrupted while writing " + file.string()) {}
};

class AtomicFile {
public:
    // Opens the temporary; throws std::runtime_error naming the file and the
    // system's reason when it cannot. Writes fail once `*cancel` is true
    // (null: never), and finish() throws OutputCancelled.
    explicit AtomicFile(std::filesystem::path destination, const std::atomic<bool>* cancel = nullptr);
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile();  // removes the temporary unless it was published

    std::ostream& stream() { return out_; }
    // finish() then publish().
    void commit();
    // Flushes and closes the temporary; throws OutputCancelled, or
    // std::runtime_error naming the file when a write failed (disk full).
    void finish();
    // Renames the finished temporary over the destination.
    void publish();
    const std::filesystem::path& destination() const { return destination_; }
    const std::filesystem::path& temporary() const { return temporary_; }

private:
    class CancellableBuffer : public std::filebuf {
    public:
        const std::atomic<bool>* cancel = nullptr;
        bool cancelled = false;

    protected:
        int_type overflow(int_type c) override;
        std::streamsize xsputn(const char_type* s, std::streamsize n) override;

    private:
        bool stop();
    };

    std::filesystem::path destination_;
    std::filesystem::path temporary_;
    CancellableBuffer buffer_;
    std::ostream out_;
    int registry_slot_ = -1;
    bool finished_ = false;
    bool published_ = false;
};

// Writes `content` to `destination` through an AtomicFile.
void write_file_atomically(const std::filesystem::path& destination, const std::string& content);

// Unlinks every temporary that is open now. Async-signal-safe: only for a
// signal handler that is about to end the process.
void remove_pending_temporaries() noexcept;

}  // namespace btforge
