// Fuzz target: a market cache file (host/data/market_cache.h, Note [Market
// cache]). read_market_cache takes a path, so each input is written to an
// in-memory file (memfd, a regular file) and read through /proc/self/fd,
// twice:
//   - as it is, under the key its own header holds, so that inputs get past
//     the key check into the header, the trailer and the payload's
//     structure;
//   - with its trailer rewritten to the size and SHA-256 of the bytes
//     between header and trailer, so that a mutated payload passes its
//     checksum and reaches the checks of Note [Market rules] and
//     build_market, which a checksum would otherwise keep from the fuzzer.
// Any input may be refused (the reader returns nothing and says why); an
// exception escaping, a crash, a leak or undefined behaviour is a bug, and so
// is a market returned that an engine could not take (view() checks it).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

#include "host/data/market_cache.h"
#include "host/io/sha256.h"

namespace {

// The layout of a cache's ends (market_cache.cpp): magic, version, key |
// payload | payload size, payload digest.
constexpr std::size_t kKeyAt = 8 + 4;
constexpr std::size_t kDigestHex = 64;
constexpr std::size_t kHeaderBytes = kKeyAt + kDigestHex;
constexpr std::size_t kTrailerBytes = 8 + kDigestHex;

int memory_file() {
    const int fd = memfd_create("btforge-fuzz.btfcache", 0);
    if (fd < 0) {
        std::perror("memfd_create");
        std::abort();
    }
    return fd;
}

void read_as_cache(const std::string& bytes, const std::string& key) {
    static const int fd = memory_file();
    static const std::string path = "/proc/self/fd/" + std::to_string(fd);
    if (ftruncate(fd, 0) != 0 ||
        pwrite(fd, bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
        std::perror("writing the memfd");
        std::abort();
    }
    std::string why;
    const btforge::MarketLoadOptions options;
    if (const auto market = btforge::read_market_cache(path, key, options, nullptr, &why)) {
        (void)market->view();
    } else if (why.empty()) {
        std::fprintf(stderr, "a cache refused without a reason\n");
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    const std::string key = size >= kHeaderBytes ? input.substr(kKeyAt, kDigestHex) : std::string(kDigestHex, '0');
    read_as_cache(input, key);
    if (size >= kHeaderBytes + kTrailerBytes) {
        const std::string payload = input.substr(kHeaderBytes, size - kHeaderBytes - kTrailerBytes);
        const std::uint64_t payload_size = payload.size();
        std::string repaired = input.substr(0, kHeaderBytes) + payload;
        repaired.append(reinterpret_cast<const char*>(&payload_size), sizeof payload_size);
        repaired += btforge::sha256_hex(payload);
        read_as_cache(repaired, key);
    }
    return 0;
}
