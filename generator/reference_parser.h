#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "generator/kernel_model.h"

namespace btforge::gen {

struct ParseOptions {
    std::filesystem::path repository_root;      // includes resolve from here (-I root)
    std::vector<std::string> entry_headers;     // relative to root, e.g. "reference/strategies/default/default_strategy.h"
    std::vector<std::string> extra_clang_args;  // appended after the built-in ones
};

// Parses all entry headers as one translation unit (an unsaved main file that
// #includes them in order) with -x c++ -std=c++20 -fparse-all-comments
// -I<root>, and returns every BT_KERNEL entity declared in files under the
// root, in translation-unit order, with the device-subset violations of
// subset_rules.h. Throws std::runtime_error listing clang's errors
// (file:line:col: message) when the code does not compile.
ReferenceModel parse_reference(const ParseOptions& options);

}  // namespace btforge::gen
