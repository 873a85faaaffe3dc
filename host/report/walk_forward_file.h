#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "host/validation/walk_forward_path.h"

namespace btforge {

// The walk-forward of a sweep's OUTPUT.validation.json, as `btforge replay
// --walk-forward` reads it back (Note [Stitched walk-forward path]).
struct WalkForwardFile {
    int periods = 0;
    std::vector<std::pair<std::string, std::string>> period_spans;  // first and last bar times
    std::vector<WalkForwardLeg> legs;
    std::vector<std::vector<std::string>> parameters;  // per leg: "name=value", as the sweep decoded the id
    double stitched_return = 0.0;
};

// Throws std::runtime_error naming the file, the JSON pointer and what is
// missing or wrong (Note [Reading a validation file]; a validation file
// without a walk-forward says to sweep with --walk-forward).
WalkForwardFile read_walk_forward_file(const std::filesystem::path& file);
// The same from the file's text; `origin` names it in errors.
WalkForwardFile parse_walk_forward_file(std::string_view text, const std::string& origin);

}  // namespace btforge
