#include "generator/input_files.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace btforge::gen {

std::string read_input_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace btforge::gen
