#pragma once

#include <string>

#include "host/data/market_window.h"

namespace btforge {

// --from / --to: the time window a sweep, replay, benchmark or parity run
// evaluates (Note [Market windows]). Empty: the market's first / last bar.
struct WindowChoice {
    std::string from;
    std::string to;
};

// The bars of `market` inside the chosen window. Throws
// UsageError for a time that is not one of the forms of
// Note [Timestamp forms] (an integer is epoch time in the unit that makes it
// a plausible date, Note [Epoch units]), and WindowError when the window
// holds no bar.
MarketWindow choose_window(const Market& market, const WindowChoice& choice);

// " --from X --to Y" as given, for the command lines a run suggests; empty
// when the whole market ran.
std::string window_arguments(const WindowChoice& choice);

}  // namespace btforge
