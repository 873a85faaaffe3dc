#include "host/io/output_transaction.h"

#include <csignal>
#include <stdexcept>
#include <string>
#include <system_error>

#include <pthread.h>
#include <unistd.h>

namespace btforge {

namespace {

std::atomic<int> g_commits{0};

// SIGINT and SIGTERM held back on this thread for the life of the object.
class SignalsHeld {
public:
    SignalsHeld() {
        sigset_t held;
        sigemptyset(&held);
        sigaddset(&held, SIGINT);
        sigaddset(&held, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &held, &previous_);
        g_commits.fetch_add(1);
    }
    ~SignalsHeld() {
        g_commits.fetch_sub(1);
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    }
    SignalsHeld(const SignalsHeld&) = delete;
    SignalsHeld& operator=(const SignalsHeld&) = delete;

private:
    sigset_t previous_;
};

std::filesystem::path backup_name(const std::filesystem::path& destination) {
    std::filesystem::path backup = destination;
    backup += ".bak-" + std::to_string(::getpid());
    return backup;
}

}  // namespace

bool commit_in_progress() noexcept { return g_commits.load() != 0; }

std::size_t OutputTransaction::add(const std::filesystem::path& destination) {
    files_.push_back(std::make_unique<AtomicFile>(destination, cancel_));
    return files_.size() - 1;
}

void OutputTransaction::commit() {
    for (const auto& file : files_) file->finish();

    // Note [Outputs committed together], step 3.
    struct Replaced {
        std::filesystem::path destination;
        std::filesystem::path backup;  // empty: there was no file
        bool moved_away = false;       // the backup is the old file itself, not a link to it
    };
    std::vector<Replaced> replaced;
    SignalsHeld held;
    auto undo = [&replaced](std::size_t published) {
        for (std::size_t i = 0; i < replaced.size(); ++i) {
            const Replaced& r = replaced[i];
            std::error_code ignored;
            if (r.backup.empty()) {
                if (i < published) std::filesystem::remove(r.destination, ignored);
            } else if (i < published || r.moved_away) {
                std::filesystem::rename(r.backup, r.destination, ignored);
            } else {
                std::filesystem::remove(r.backup, ignored);
            }
        }
    };
    for (const auto& file : files_) {
        Replaced r{file->destination(), {}, false};
        std::error_code ec;
        if (std::filesystem::exists(file->destination(), ec)) {
            if (!std::filesystem::is_regular_file(file->destination(), ec)) {
                undo(0);
                throw std::runtime_error("cannot replace " + file->destination().string() +
                                         ": it exists and is not a file; nothing was written");
            }
            r.backup = backup_name(file->destination());
            std::filesystem::remove(r.backup, ec);
            std::filesystem::create_hard_link(file->destination(), r.backup, ec);
            if (ec) {
                ec.clear();
                std::filesystem::rename(file->destination(), r.backup, ec);
                r.moved_away = !ec;
            }
            if (ec) {
                undo(0);
                throw std::runtime_error("cannot replace " + file->destination().string() +
                                         " safely (no backup possible: " + ec.message() + "); nothing was written");
            }
        }
        replaced.push_back(r);
    }
    for (std::size_t i = 0; i < files_.size(); ++i) {
        try {
            files_[i]->publish();
        } catch (const std::exception& e) {
            undo(i);
            throw std::runtime_error(std::string(e.what()) + "; the other result files were left as they were");
        }
    }
    for (const Replaced& r : replaced) {
        std::error_code ignored;
        if (!r.backup.empty()) std::filesystem::remove(r.backup, ignored);
    }
}

}  // namespace btforge
