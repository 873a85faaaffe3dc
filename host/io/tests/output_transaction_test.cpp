// Note [Outputs committed together] and Note [No half-written outputs]: a set
// of files is published whole or not at all, whatever fails and when.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "host/io/output_transaction.h"
#include "host/io/tests/temp_dir.h"

namespace fs = std::filesystem;
using btforge::testing::TempDir;

namespace {

std::string read(const fs::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void write(const fs::path& file, const std::string& content) { std::ofstream(file) << content; }

// Every name in `dir`, sorted: no temporary or backup may stay behind.
std::string listing(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto& n : names) out += n + ";";
    return out;
}

}  // namespace

TEST_CASE("a transaction publishes every file, replacing old ones, and leaves nothing else") {
    TempDir dir;
    write(dir.path() / "a.csv", "old a");
    {
        btforge::OutputTransaction t;
        t.add(dir.path() / "a.csv");
        t.add(dir.path() / "b.json");
        t.stream(0) << "new a";
        t.stream(1) << "new b";
        CHECK(read(dir.path() / "a.csv") == "old a");  // nothing visible before commit
        t.commit();
    }
    CHECK(read(dir.path() / "a.csv") == "new a");
    CHECK(read(dir.path() / "b.json") == "new b");
    CHECK(listing(dir.path()) == "a.csv;b.json;");
}

TEST_CASE("a failure on the second file leaves the first one as it was") {
    TempDir dir;
    write(dir.path() / "a.csv", "old a");
    // A directory where the second file goes: its temporary opens, but it
    // cannot be replaced.
    fs::create_directories(dir.path() / "b.json" / "inside");
    btforge::OutputTransaction t;
    t.add(dir.path() / "a.csv");
    t.add(dir.path() / "b.json");
    t.stream(0) << "new a";
    t.stream(1) << "new b";
    CHECK_THROWS_WITH_AS(t.commit(), doctest::Contains("b.json"), std::runtime_error);
    CHECK(read(dir.path() / "a.csv") == "old a");
    CHECK(fs::is_directory(dir.path() / "b.json" / "inside"));
}

TEST_CASE("a failure on the second file removes a first file that did not exist before") {
    TempDir dir;
    fs::create_directories(dir.path() / "b.json" / "inside");
    {
        btforge::OutputTransaction t;
        t.add(dir.path() / "a.csv");
        t.add(dir.path() / "b.json");
        t.stream(0) << "new a";
        CHECK_THROWS(t.commit());
    }
    CHECK_FALSE(fs::exists(dir.path() / "a.csv"));
    CHECK(listing(dir.path()) == "b.json;");
}

TEST_CASE("a cancel while the files are written publishes none and removes the temporaries") {
    TempDir dir;
    write(dir.path() / "a.csv", "old a");
    std::atomic<bool> cancel{false};
    {
        btforge::OutputTransaction t(&cancel);
        t.add(dir.path() / "a.csv");
        t.add(dir.path() / "b.json");
        t.stream(0) << "new a";
        cancel = true;
        // Past the stream buffer, so the write reaches the cancelled buffer.
        const std::string block(1 << 16, 'x');
        t.stream(1) << block;
        CHECK_FALSE(t.stream(1).good());
        CHECK_THROWS_AS(t.commit(), btforge::OutputCancelled);
    }
    CHECK(read(dir.path() / "a.csv") == "old a");
    CHECK(listing(dir.path()) == "a.csv;");
}

TEST_CASE("an unwritable place fails when the file is added, before any work") {
    CHECK_THROWS_WITH_AS(btforge::OutputTransaction().add("/proc/btforge-no-such-dir/x.csv"),
                         doctest::Contains("cannot write /proc/btforge-no-such-dir/x.csv"), std::runtime_error);
}

TEST_CASE("abandoned transactions leave no temporaries") {
    TempDir dir;
    {
        btforge::OutputTransaction t;
        t.add(dir.path() / "a.csv");
        t.stream(0) << "partial";
    }
    CHECK(listing(dir.path()).empty());
}
