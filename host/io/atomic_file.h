#pragma once

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace btforge {

// Note [No half-written outputs]
// Every file btforge produces is written to a temporary in the destination's
// directory and renamed over the destination only after the stream was
// flushed and closed without error. A failure or an exception in between
// removes the temporary, so a reader sees the old file or the complete new
// one, never a prefix. Temporaries are opened before the work that fills
// them (OutputTransaction), so a directory that cannot be written is found
// first.
//
// Note [Temporaries a killed run leaves]
// Where the system allows it (Linux's O_TMPFILE on the directory's file
// system, and /proc to link the file by its descriptor), the temporary has
// no name while it is written: a run killed at any moment, SIGKILL
// included, leaves nothing behind. It is given the name "<name>.tmp-<pid>"
// only at publication, for the instant between linkat and rename.
// Elsewhere it is created under that name from the start. Either way the
// names are recognisable: a later run that writes <name> first removes
// every "<name>.tmp-<pid>" and "<name>.bak-<pid>" (Note [Outputs committed
// together]) whose process is gone (kill(pid, 0) fails with ESRCH); a live
// process's files are left alone. While a named temporary exists it is
// registered for remove_pending_temporaries(), which a forced exit (a
// second Ctrl-C) calls.

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
    // The temporary's name: where it is written, or, while unnamed(), the
    // name it gets at publication.
    const std::filesystem::path& temporary() const { return temporary_; }

    // True while the temporary has no name (Note [Temporaries a killed run
    // leaves]).
    bool unnamed() const { return unnamed_; }

private:
    // A stream buffer over the temporary's descriptor: writes fail once
    // `cancel` is raised, so a writer checking the stream stops early.
    class CancellableBuffer : public std::streambuf {
    public:
        CancellableBuffer();
        int fd = -1;
        const std::atomic<bool>* cancel = nullptr;
        bool cancelled = false;
        bool failed = false;  // a write(2) failed (disk full)
        // Writes what is buffered and closes the descriptor; false on any
        // error since it was opened.
        bool close();

    protected:
        int_type overflow(int_type c) override;
        std::streamsize xsputn(const char_type* s, std::streamsize n) override;
        int sync() override;

    private:
        bool stop();
        bool drain();
        bool write_all(const char* data, std::size_t bytes);
        std::vector<char> buffer_;
    };

    void link_unnamed();

    std::filesystem::path destination_;
    std::filesystem::path temporary_;  // the name it has, or gets at publication
    CancellableBuffer buffer_;
    std::ostream out_;
    int registry_slot_ = -1;
    bool unnamed_ = false;
    bool finished_ = false;
    bool published_ = false;
};

// A file without a name in `directory`, opened with `access` (O_WRONLY or
// O_RDWR) through Linux's O_TMPFILE; -1 with errno where the system or the
// file system cannot (the caller then falls back to a named file).
int open_unnamed_file(const std::filesystem::path& directory, int access);

// Removes what killed runs left of `destination`'s temporaries and backups
// (Note [Temporaries a killed run leaves]); AtomicFile calls it before it
// opens its own. Returns how many files it removed.
int remove_stale_temporaries(const std::filesystem::path& destination);

// Writes `content` to `destination` through an AtomicFile.
void write_file_atomically(const std::filesystem::path& destination, const std::string& content);

// Unlinks every temporary that is open now. Async-signal-safe: only for a
// signal handler that is about to end the process.
void remove_pending_temporaries() noexcept;

}  // namespace btforge
