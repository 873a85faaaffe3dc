#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "generator/reference_parser.h"

namespace btforge::gen::test {

inline std::filesystem::path source_dir() {
    const char* dir = std::getenv("BTFORGE_SOURCE_DIR");
    REQUIRE_MESSAGE(dir != nullptr, "BTFORGE_SOURCE_DIR is set by btforge_add_doctest");
    return dir;
}

inline ReferenceModel parse(std::vector<std::string> headers) {
    ParseOptions options;
    options.repository_root = source_dir();
    options.entry_headers = std::move(headers);
    return parse_reference(options);
}

inline std::string where(const Violation& v) {
    return v.location.file + ":" + std::to_string(v.location.line) + ":" + std::to_string(v.location.column);
}

inline std::string describe(const std::vector<Violation>& violations) {
    std::string out;
    for (const Violation& v : violations) out += where(v) + ": " + v.rule + ": " + v.explanation + "\n";
    return out;
}

inline const Entity* find_entity(const ReferenceModel& model, const std::string& qualified_name) {
    for (const Entity& e : model.entities) {
        if (e.qualified_name == qualified_name) return &e;
    }
    return nullptr;
}

}  // namespace btforge::gen::test
