#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace btforge {

// Note [Return streams from equity marks]
// A combination's return stream is its M equity marks (Note [Equity marks])
// turned into the returns of its M parts: r_i = mark_i / mark_(i-1) - 1,
// mark_(-1) the initial equity, and 0 after a part that ended at or below
// zero equity (a ruined account has no return, as the metrics count it).
// Against a flat benchmark (cash, return 0) the stream is its own
// differential (Note [Reality Check, SPA and StepM]). The same host code
// for every engine, so equal marks give equal streams.
std::vector<double> returns_of_equity_marks(std::span<const double> marks, int n_marks, double initial_equity);

}  // namespace btforge
