// Fuzz target: a long CSV market file (host/data/csv_market_loader.h). The
// loader takes a path, so each input is written to an in-memory file
// (memfd) and loaded through /proc/self/fd. Any input may be refused with a
// DataError; anything else escaping, a crash, a leak or undefined behaviour
// is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

#include "host/data/csv_market_loader.h"
#include "host/data/data_error.h"

namespace {

int memory_file() {
    const int fd = memfd_create("btforge-fuzz.csv", 0);
    if (fd < 0) {
        std::perror("memfd_create");
        std::abort();
    }
    return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const int fd = memory_file();
    static const std::string path = "/proc/self/fd/" + std::to_string(fd);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) {
        std::perror("writing the memfd");
        std::abort();
    }
    try {
        (void)btforge::load_market_csv(path);
    } catch (const btforge::DataError&) {
    }
    return 0;
}
