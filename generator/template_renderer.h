#pragma once

#include <filesystem>
#include <string>

#include <kainjow/mustache.hpp>

namespace btforge::gen {

using TemplateData = kainjow::mustache::data;

// Renders templates/<name> with `data`. Templates are real .cu/.h files with
// a few {{slots}}; values are inserted verbatim (no HTML escaping). Throws
// std::runtime_error naming the template on a syntax error.
std::string render_template(const std::filesystem::path& templates_dir, const std::string& name,
                            const TemplateData& data);

}  // namespace btforge::gen
