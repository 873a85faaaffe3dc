#pragma once

#include <string>
#include <string_view>

namespace btforge {

// Hex SHA-256 (FIPS 180-4) of `data`. The generator's stamp names its inputs
// by content (the same inputs give the same bytes anywhere); the JIT cache
// keys its entries and checks their payloads with it.
std::string sha256_hex(std::string_view data);

}  // namespace btforge
