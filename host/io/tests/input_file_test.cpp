// Note [Reading input files]: the kind and the size of an input are checked
// before it is read, and opening one never blocks.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/io/input_file.h"
#include "host/io/tests/temp_dir.h"

namespace fs = std::filesystem;
using btforge::testing::TempDir;
using btforge::InputStreaming;
using btforge::read_input_file;

namespace {

std::string failure(const fs::path& file, std::uint64_t limit, InputStreaming streaming) {
    try {
        return "read " + std::to_string(read_input_file(file, "grid file", limit, streaming).size());
    } catch (const btforge::InputFileError& e) {
        CHECK(e.file() == file.string());
        return e.rule() + ": " + e.message();
    }
}

}  // namespace

TEST_CASE("a regular file is read whole within its limit") {
    TempDir dir;
    std::ofstream(dir.path() / "g.json") << "[1,2,3]";
    CHECK(read_input_file(dir.path() / "g.json", "grid file", 7, InputStreaming::refused) == "[1,2,3]");
    CHECK(failure(dir.path() / "g.json", 6, InputStreaming::refused) ==
          "too-large: the grid file has 7 bytes; at most 6 bytes are read");
    CHECK(failure(dir.path() / "absent", 6, InputStreaming::refused) == "cannot-read: no such file");
    CHECK(failure(dir.path(), 6, InputStreaming::allowed) == "not-a-regular-file: is a directory, not a grid file");
}

TEST_CASE("devices are refused before a byte is read") {
    CHECK(failure("/dev/zero", 1 << 20, InputStreaming::allowed) ==
          "not-a-regular-file: is a character device, not a grid file");
    CHECK(failure("/dev/null", 1 << 20, InputStreaming::allowed) ==
          "not-a-regular-file: is a character device, not a grid file");
}

TEST_CASE("a sparse file larger than the limit costs a stat, not its size") {
    TempDir dir;
    const fs::path sparse = dir.path() / "sparse.csv";
    std::ofstream(sparse).close();
    fs::resize_file(sparse, std::uint64_t{3} << 30);  // 3 GiB of holes
    const auto started = std::chrono::steady_clock::now();
    CHECK(failure(sparse, std::uint64_t{64} << 20, InputStreaming::allowed) ==
          "too-large: the grid file has 3221225472 bytes; at most 64 MiB (67108864 bytes) are read");
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(1));
}

TEST_CASE("a FIFO without a writer does not block open(); it is a stream") {
    TempDir dir;
    const fs::path fifo = dir.path() / "fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    // Refused where the size must be known, read as an empty stream where a
    // stream is allowed (no writer: end of file at once). Before Note
    // [Reading input files] both hung in open().
    CHECK(failure(fifo, 16, InputStreaming::refused) ==
          "not-a-regular-file: is a FIFO or pipe, not a grid file (this input needs a regular file, whose size is "
          "known before it is read)");
    CHECK(failure(fifo, 16, InputStreaming::allowed) == "read 0");
}

TEST_CASE("a stream is refused the moment it passes the limit") {
    // A pipe, as `--data <(zcat m.csv.gz)` gives one: /dev/fd/N reopens it.
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    const pid_t writer = ::fork();
    REQUIRE(writer >= 0);
    if (writer == 0) {
        ::close(ends[0]);
        const std::string block(1 << 16, 'x');
        for (int i = 0; i < 1024; ++i) {  // 64 MiB unless the reader stops early
            if (::write(ends[1], block.data(), block.size()) < 0) break;
        }
        ::_exit(0);
    }
    ::close(ends[1]);
    CHECK(failure("/dev/fd/" + std::to_string(ends[0]), 100000, InputStreaming::allowed) ==
          "too-large: the grid file is larger than 100000 bytes, the most that is read");
    ::close(ends[0]);
    int status = 0;
    ::waitpid(writer, &status, 0);
}
