#pragma once

#include <string>
#include <string_view>

namespace btforge::gen {

// Hex SHA-256 (FIPS 180-4) of `data`: the stamp of generated files names
// their inputs by content, so the same inputs give the same bytes anywhere.
std::string sha256_hex(std::string_view data);

}  // namespace btforge::gen
