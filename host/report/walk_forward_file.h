#pragma once

#include <filesystem>
#include <string>
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

// Throws std::runtime_error naming the file and what is missing or wrong
// (a validation file without a walk-forward says to sweep with --walk-forward).
WalkForwardFile read_walk_forward_file(const std::filesystem::path& file);

}  // namespace btforge
