#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "reference/portfolio/fill_log.h"

namespace btforge {

// Note [Stitched walk-forward path]
// What `btforge replay --walk-forward` writes: the account a user would have
// had by trading each walk-forward step's winner during that step's
// out-of-sample period (Note [Walk-forward from period statistics]). Each
// winner is replayed over the whole window exactly as the sweep ran it, so
// its state (indicators, an open position) carries into its period as it did
// in the sweep; the path keeps its bars and fills inside the period. The
// path's equity starts at the initial equity and, within a leg, moves as the
// winner's close-marked equity over its equity at the close before the
// period (the period's start_equity): so each leg's end is the path's start
// times (1 + the period's return), and the whole path returns the
// walk-forward's stitched return (up to the rounding of chaining the legs
// bar by bar instead of period by period). A ruined winner (start equity
// <= 0) leaves the path flat, as its period return counts 0.

struct WalkForwardLeg {
    int step = 0;                      // 1-based, as the walk-forward CSV numbers them
    std::uint64_t combination_id = 0;
    int out_of_sample_period = 0;
};

struct StitchedFill {
    int step;
    std::uint64_t combination_id;
    FillRecord fill;  // its bar counts from the window's first bar
};

struct StitchedPath {
    std::vector<int> bars;        // window bars of the legs' periods, in order
    std::vector<int> bar_steps;   // the step of each
    std::vector<double> equity;   // the path's close-marked equity at each
    std::vector<StitchedFill> fills;
};

// Appends one leg, given its winner's run over the window: `equity`, its
// close-marked equity at each of the window's n_bars bars, and its fills.
// The window is cut into n_periods periods as the sweep cut it (Note [Period
// statistics]).
void append_walk_forward_leg(StitchedPath& path, const WalkForwardLeg& leg, int n_periods, double initial_equity,
                             std::span<const double> equity, std::span<const FillRecord> fills);

}  // namespace btforge
