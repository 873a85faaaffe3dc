#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "generator/output_files.h"

namespace btforge::gen {

// Note [The strategy scaffold]
// `btforge-gen --new-strategy NAME` writes the four files a new strategy
// starts from (Note [Strategy discovery]): its kernel, its spec, its
// quickstart grid and a scenario test, rendered from templates/new_strategy/.
// The skeleton is a complete strategy (the close crossing its SMA, a fixed
// stop) that passes the subset rules, the spec/struct check, its scenario
// test and parity as written, so a user changes a working strategy one step
// at a time instead of debugging an empty one. Everything else (the sweep
// kernel, the binding, the catalog entry, the CI checks) follows from these
// files on the next build.

// The files of a new strategy NAME, relative to the repository root.
std::vector<OutputFile> render_strategy_scaffold(const std::filesystem::path& templates_dir, const std::string& name);

// Checks NAME (a lower-case C identifier, at most 48 characters), refuses
// when any file of the strategy exists already, then writes them all or none
// (Note [Outputs committed together]). Throws std::runtime_error saying why.
// Returns the paths written, relative to the root.
std::vector<std::string> write_strategy_scaffold(const std::filesystem::path& root, const std::string& name);

}  // namespace btforge::gen
