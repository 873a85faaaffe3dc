// Note [Temporaries a killed run leaves]: a run killed while it writes leaves
// nothing, or names that the next run recognises and removes.
#include <doctest/doctest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include "host/io/atomic_file.h"
#include "host/io/output_transaction.h"
#include "host/io/tests/temp_dir.h"

namespace fs = std::filesystem;
using btforge::testing::TempDir;
using btforge::AtomicFile;
using btforge::OutputTransaction;

namespace {

std::set<std::string> names_in(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
    return names;
}

// The pid of a process that has ended (and been reaped).
pid_t a_dead_pid() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    return child;
}

// Runs `body` in a child process that kills itself with SIGKILL when the
// body returns, as a run killed by the system or the user would die.
template <class Body>
void run_and_kill(Body body) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        body();
        ::raise(SIGKILL);
        ::_exit(1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    REQUIRE(WIFSIGNALED(status));
    REQUIRE(WTERMSIG(status) == SIGKILL);
}

}  // namespace

TEST_CASE("a run killed while it writes leaves no file") {
    TempDir dir;
    std::ofstream(dir.path() / "res.csv") << "an older result\n";
    run_and_kill([&] {
        // Opened at the start of a run, half written, then killed.
        OutputTransaction outputs;
        outputs.add(dir.path() / "res.csv");
        outputs.add(dir.path() / "res.json");
        outputs.stream(0) << std::string(1 << 20, 'x');
        outputs.stream(0).flush();
    });
    // Unnamed temporaries (this test's file system has O_TMPFILE; Debian's
    // ext4, xfs, btrfs and tmpfs all do) vanish with their process.
    CHECK(names_in(dir.path()) == std::set<std::string>{"res.csv"});
    std::ifstream in(dir.path() / "res.csv");
    std::string line;
    std::getline(in, line);
    CHECK(line == "an older result");
}

TEST_CASE("a killed run's named temporaries and backups are removed by the next run") {
    TempDir dir;
    const std::string dead = std::to_string(a_dead_pid());
    const std::string alive = std::to_string(::getppid());
    for (const std::string& name : {"res.csv.tmp-" + dead, "res.csv.bak-" + dead, "res.csv.tmp-" + alive,
                                    std::string("res.csv.tmp-12ab"), "other.csv.tmp-" + dead, "res.csv.tmp-" + dead + ".x"}) {
        std::ofstream(dir.path() / name) << "left behind\n";
    }
    CHECK(btforge::remove_stale_temporaries(dir.path() / "res.csv") == 2);
    // A live process's files, other names and other outputs' files stay.
    CHECK(names_in(dir.path()) == std::set<std::string>{"res.csv.tmp-" + alive, "res.csv.tmp-12ab",
                                                      "other.csv.tmp-" + dead, "res.csv.tmp-" + dead + ".x"});
    // Writing res.csv cleans its own leftovers first.
    std::ofstream(dir.path() / ("res.csv.tmp-" + dead)) << "left behind\n";
    btforge::write_file_atomically(dir.path() / "res.csv", "new\n");
    CHECK(names_in(dir.path()).count("res.csv.tmp-" + dead) == 0);
    CHECK(names_in(dir.path()).count("res.csv") == 1);
}

TEST_CASE("a file written through AtomicFile has no name until it is finished") {
    TempDir dir;
    AtomicFile file(dir.path() / "out.txt");
    file.stream() << "content\n";
    CHECK(file.unnamed());
    CHECK(fs::is_empty(dir.path()));
    file.finish();
    CHECK(!file.unnamed());
    CHECK(names_in(dir.path()) == std::set<std::string>{"out.txt.tmp-" + std::to_string(::getpid())});
    file.publish();
    CHECK(names_in(dir.path()) == std::set<std::string>{"out.txt"});
}

TEST_CASE("a file abandoned before publication leaves nothing, named or not") {
    TempDir dir;
    {
        AtomicFile unfinished(dir.path() / "a.txt");
        unfinished.stream() << "partial";
    }
    {
        AtomicFile finished(dir.path() / "b.txt");
        finished.stream() << "whole";
        finished.finish();
    }
    CHECK(fs::is_empty(dir.path()));
}
