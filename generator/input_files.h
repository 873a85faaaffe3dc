#pragma once

#include <filesystem>
#include <string>

namespace btforge::gen {

// The whole content of one of the generator's inputs (spec/generator.json, a
// strategy spec), read as bytes. Throws std::runtime_error "cannot read PATH".
std::string read_input_file(const std::filesystem::path& path);

}  // namespace btforge::gen
