#pragma once

// BREADTH(period): market breadth, a cross-symbol reduction (no TA-Lib
// counterpart).
// Definition: per bar, (number of tradable symbols with a non-NaN EMA and
// close > EMA) / (number of tradable symbols with a non-NaN EMA), counted in
// integers and divided once; NaN when no symbol qualifies.
// Lookback: period - 1 (the EMA's).
// Seed: none; the caller passes EMA(period) of the close of every symbol in the
// aligned layout (Note [Aligned market layout]), computed per symbol on its own
// bars and held across its gaps.
//
// Note [Breadth counts tradable symbols only]
// A symbol without a bar at t holds its last close and its EMA (so held values
// are not NaN), but it is not part of the market at t: only tradable symbols
// enter numerator and denominator.

#include "reference/indicators/common.h"
#include "reference/market/market_view.h"

namespace btforge {

BT_KERNEL inline int breadth_lookback(int period) { return period - 1; }

// One symbol's part of the breadth of bar t: whether it is counted, and
// whether it is above its EMA. Integer votes add up the same in any order, so
// a parallel reduction (the GPU's shared-memory atomics) is exact.
struct BT_KERNEL BreadthVote {
    int counted;
    int above;
};

BT_KERNEL inline BreadthVote breadth_vote(const MarketView& market, const double* ema_aligned, int symbol, int t) {
    BreadthVote vote;
    vote.counted = 0;
    vote.above = 0;
    const int i = market_index(market, symbol, t);
    if (market.tradable[i] == 0 || std::isnan(ema_aligned[i])) return vote;
    vote.counted = 1;
    if (market.close[i] > ema_aligned[i]) vote.above = 1;
    return vote;
}

BT_KERNEL inline double breadth_ratio(int above, int counted) {
    return counted == 0 ? indicator_nan() : static_cast<double>(above) / static_cast<double>(counted);
}

BT_KERNEL inline void breadth_compute(const MarketView& market, const double* ema_aligned, double* out) {
    for (int t = 0; t < market.n_bars; ++t) {
        int above = 0;
        int counted = 0;
        for (int s = 0; s < market.n_symbols; ++s) {
            BreadthVote vote = breadth_vote(market, ema_aligned, s, t);
            counted += vote.counted;
            above += vote.above;
        }
        out[t] = breadth_ratio(above, counted);
    }
}

}  // namespace btforge
