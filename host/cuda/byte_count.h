#pragma once

#include <cstdint>
#include <string>

namespace btforge::cuda {

// "512 B", "1.5 KiB", "79.2 GiB": sizes in the messages about device memory.
std::string format_bytes(std::uint64_t bytes);

}  // namespace btforge::cuda
