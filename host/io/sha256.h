#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "host/io/input_file.h"

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

// Hex SHA-256 of what is left of `input` (Note [Reading input files]), read
// in 1 MiB pieces, never whole. Throws InputFileError when it cannot be read.
std::string sha256_hex_of_input(InputFile& input);

}  // namespace btforge
