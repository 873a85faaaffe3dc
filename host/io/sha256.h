#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace btforge {

// Lower-case hex SHA-256 of `data` (Note [SHA-256 from Nettle]). The JIT cache
// keys its entries and checks their payloads with it.
std::string sha256_hex(std::string_view data);

// The same digest over data given in pieces: for inputs read or written in
// parts, never held whole (Note [Market cache]).
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(const void* data, std::size_t bytes);
    // The digest of everything given so far, as lower-case hex.
    std::string hex() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

// Hex SHA-256 of the files' contents, one after the other, each preceded by
// its size (so moving bytes between files changes the digest), then
// `extra`; read in 1 MiB pieces, never whole. Throws std::runtime_error
// naming a file that cannot be read.
std::string sha256_hex_of_files(std::span<const std::filesystem::path> files, std::string_view extra);

}  // namespace btforge
