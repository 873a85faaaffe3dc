#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <ostream>
#include <vector>

#include "host/io/atomic_file.h"

namespace btforge {

// Note [Outputs committed together]
// A command that writes several files (a sweep's CSV and JSON, a replay's
// trade log, round trips and equity curve) publishes all of them or none:
//   1. add() opens every temporary before the work (Note [No half-written
//      outputs]), so an unwritable directory fails first;
//   2. commit() finishes every temporary (a write error or a cancel stops
//      here, before any destination changed);
//   3. each destination that exists is kept as a hard link "<name>.bak-<pid>"
//      (or renamed there where links are impossible), then every temporary
//      is renamed over its destination; if one rename fails, the ones done
//      are undone from the backups (or removed where there was no file), so
//      the old set is back;
//   4. the backups are removed.
// Step 3 takes milliseconds and runs with SIGINT and SIGTERM blocked on the
// committing thread and with commit_in_progress() set, which the interrupt
// handler reads so that a second Ctrl-C does not end the process inside it.
class OutputTransaction {
public:
    // `cancel`: Ctrl-C while the files are written makes commit() throw
    // OutputCancelled (null: never).
    explicit OutputTransaction(const std::atomic<bool>* cancel = nullptr) : cancel_(cancel) {}

    // Opens the temporary of `destination`; throws std::runtime_error naming
    // it and the system's reason when it cannot be created. Returns its index.
    std::size_t add(const std::filesystem::path& destination);
    std::ostream& stream(std::size_t index) { return files_[index]->stream(); }
    const std::filesystem::path& destination(std::size_t index) const { return files_[index]->destination(); }
    std::size_t size() const { return files_.size(); }

    void commit();

private:
    const std::atomic<bool>* cancel_;
    std::vector<std::unique_ptr<AtomicFile>> files_;
};

// True while some OutputTransaction renames its files into place.
bool commit_in_progress() noexcept;

}  // namespace btforge
