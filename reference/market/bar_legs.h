#pragma once

#include "reference/kernel_marker.h"
#include "reference/market/market_view.h"

namespace btforge {

// Note [A bar as three legs]
// Without finer bars, the bounds of the order inside a bar
// (`--intrabar-bounds`, docs/ACCOUNTING.md §9) take each bar's path to be
// three straight legs through its four prices: open to one extreme, to the
// other, to the close. fine_legs +1 takes the extreme favourable to the
// position first (the high for a long, the low for a short), -1 the adverse
// one first: the optimistic and the pessimistic orders. The legs are walked
// as finer bars (Note [Walking the finer bars of a bracket]), on the same
// bars and with the same rules, with two differences, both because the
// legs are one continuous path and not bars of their own:
//   - a pause at each extreme (a leg with open, high and low all at it)
//     follows the leg that reached it, so an exit that the one-exit rule
//     kept back there (TP after TP1 on the same way up) happens at the
//     extreme, before the way back can reach the stop: five finer bars;
//   - only the first leg can open beyond a level (a gap at the bar's open).
//     A target that a later leg reaches was passed on the way, so it fills
//     at its level, not at that leg's open: that leg's target reference
//     price is the bar's adverse extreme, which lies beyond every target
//     the price came to inside the bar. A stop is never passed so (a leg
//     that reaches the stop or the liquidation ends the position; a stop a
//     leg lifted acts from the next one, which starts beyond it), so the
//     stop keeps the leg's open.
// A leg is computed from the bar and the side, so no array holds it, every
// bar has its path (fine_path is not read), and fine_per_bar is kBarLegs.
// Only the CPU reference walks legs (the replays of the bounds): the GPU
// kernels see fine_legs as the constant 0 and carry no leg code (Note
// [Kernels for finer bars]), and the GPU engines refuse a job with legs.

// Legs per bar: the host sets fine_per_bar to it with fine_legs.
inline constexpr int kBarLegs = 5;

// The prices of one finer bar of a walk: the bar's own open, high and low,
// and the price a target it reached fills at when the bar opens beyond it
// (Note [Target fills]).
struct BT_KERNEL FinerBarPrices {
    double open;
    double high;
    double low;
    double target_open;
};

// Finer bar k of cell i for a position on `side`: the market's own finer bar
// (Note [Finer bars]) or leg k of the bar (Note [A bar as three legs]).
BT_KERNEL inline FinerBarPrices finer_bar_prices(const MarketView& market, int i, int k, int side) {
    FinerBarPrices bar;
    if (market.fine_legs == 0) {
        std::int64_t f = finer_bar_index(market, i, k);
        bar.open = market.fine_open[f];
        bar.high = market.fine_high[f];
        bar.low = market.fine_low[f];
        bar.target_open = bar.open;
        return bar;
    }
    double first = market.fine_legs * side > 0 ? market.high[i] : market.low[i];
    double second = market.fine_legs * side > 0 ? market.low[i] : market.high[i];
    // Legs 0-4: open to first, first, first to second, second, second to close.
    double from = k == 0 ? market.open[i] : (k <= 2 ? first : second);
    double to = k <= 1 ? first : (k <= 3 ? second : market.close[i]);
    bar.open = from;
    bar.high = from > to ? from : to;
    bar.low = from < to ? from : to;
    bar.target_open = k == 0 ? from : (side > 0 ? market.low[i] : market.high[i]);
    return bar;
}

}  // namespace btforge
