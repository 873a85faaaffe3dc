#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "host/data/market.h"

namespace btforge {

// Computes one output of one indicator for every symbol, in the aligned
// symbol-major layout [n_symbols * n_bars] (Note [Aligned market layout]).
// Each symbol's own bars (market.own_bars[s]) are gathered into contiguous
// arrays, the reference kernel runs on them, and the result is scattered back;
// at aligned bars where the symbol has no bar the value is its previous one (NaN
// before its first bar): indicators hold their state. BREADTH computes EMA(period)
// of every symbol this way, reduces across symbols with breadth_compute, and
// replicates the per-bar result into every symbol's row.
// Throws std::invalid_argument for an unknown indicator or output, or bad params.
// `input` is the price column a one-input indicator reads instead of its own
// (Note [Indicator input column]); empty: its own.
// The checks compute_aligned_series starts with, alone: the indicator and
// output exist, the params and the input column are valid. Returns the
// output's index.
int validate_series_request(std::string_view indicator, std::string_view output, std::span<const double> params,
                            std::string_view input);

std::vector<double> compute_aligned_series(const Market& market, std::string_view indicator, std::string_view output,
                                           std::span<const double> params, std::string_view input);

}  // namespace btforge
