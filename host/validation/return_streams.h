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
// differential (Note [Reality Check, SPA and StepM]); against buy and hold,
// the benchmark's marks make its stream the same way (Note [Buy-and-hold
// benchmark]) and the differential is the difference. The same host code
// for every engine, so equal marks give equal streams.
std::vector<double> returns_of_equity_marks(std::span<const double> marks, int n_marks, double initial_equity);

// A run keeps its return streams for --spa, which resamples them, and for
// --returns alone (M or daily), which clusters them (Note [Effective number
// of trials]).
inline bool keeps_return_streams(bool spa, int requested_parts, bool daily) {
    return spa || requested_parts != -1 || daily;
}

// The parts of the window a return stream has: `requested` (--returns M),
// or with -1 (not given) 256, or the window's bars when fewer. (With
// --returns daily, the window's UTC days: Note [Equity marks at UTC days].)
inline constexpr int kDefaultReturnParts = 256;
inline int return_stream_parts(int requested, int window_bars) {
    if (requested != -1) return requested;
    return window_bars < kDefaultReturnParts ? window_bars : kDefaultReturnParts;
}

}  // namespace btforge
