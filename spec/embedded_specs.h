#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace btforge {

struct EmbeddedFile {
    std::string_view name;  // path relative to spec/, e.g. "grids/default_quickstart.json"
    std::string_view content;
};

// The files of spec/ as they were when the binary was built.
std::span<const EmbeddedFile> embedded_spec_files();
std::optional<std::string_view> embedded_spec_file(std::string_view name);

}  // namespace btforge
