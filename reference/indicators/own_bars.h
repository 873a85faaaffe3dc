#pragma once

// Moving one symbol's series between the aligned layout (Note [Aligned market
// layout]) and its own bars. Indicators run on a symbol's own bars only: a bar
// the symbol does not have is not a bar of its series. `own_bars` lists, in
// order, the aligned bar indices where the symbol has a bar (n_own of them).

#include "reference/indicators/common.h"

namespace btforge {

// own[j] = aligned_row[own_bars[j]] for j in [0, n_own).
BT_KERNEL inline void gather_own_bars(const double* aligned_row, const int* own_bars, int n_own, double* own) {
    for (int j = 0; j < n_own; ++j) own[j] = aligned_row[own_bars[j]];
}

// Note [Indicators hold across gaps]
// Back to the aligned layout: at an aligned bar where the symbol has no bar,
// its series holds its previous own value (NaN before its first bar), as its
// prices hold its last close. aligned_row[t] for t in [0, n_bars).
BT_KERNEL inline void hold_across_gaps(const double* own, const int* own_bars, int n_own, int n_bars,
                                       double* aligned_row) {
    double held = indicator_nan();
    int next = 0;
    for (int t = 0; t < n_bars; ++t) {
        if (next < n_own && own_bars[next] == t) {
            held = own[next];
            next += 1;
        }
        aligned_row[t] = held;
    }
}

}  // namespace btforge
