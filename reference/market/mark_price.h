#pragma once

#include <cmath>

#include "reference/kernel_marker.h"
#include "reference/market/market_view.h"

namespace btforge {

// Note [Mark price]
// Exchanges liquidate on a mark price (Binance: an index of spot prices plus
// a smoothed basis), not on the last trade. A market may carry a mark series
// beside its bars (`--mark FILE`): for each cell the mark's bar (its open,
// high and low: MarketView.mark_open, mark_high, mark_low; null where the
// market has none, and the last price stands in). Where it is given, the
// liquidation rule (Note [Liquidation rule]) reads the mark in place of the
// last price, and nothing else does:
//   1. the condition at the mark's adverse extreme, and in cross margin each
//      position's cushion for the others there;
//   2. at the mark's open, where the position starts the bar (the fill of a
//      position filled inside the bar, shifted by the bar's opening basis,
//      mark open - open, and kept inside the mark's range), else at its
//      liquidation price kept inside [mark low, that start] for a long;
//   3. against the stop, a level of the last price: the two series are
//      taken to move together inside the bar (at the basis of its open), so
//      the liquidation price is compared with the stop shifted by that
//      basis. Without a mark the basis is exactly 0 and the stop itself is
//      compared, as before.
// The stop, the targets, the entries, the equity and funding stay on the
// last price. A cell whose mark bar the file lacks holds the last price's
// own open, high and low (the host counts such cells for the run header).
// Finer bars and the legs of a bar have no mark series: the host never
// gives a market both, so a walk reads the last price (mark_open is null).
struct BT_KERNEL MarkPrices {
    double open;   // where the position starts the bar on the mark
    double high;
    double low;
    double basis;  // mark minus last at the bar's open (0 without a mark)
};

// The mark's prices of cell i for a position that starts the bar at
// `open_reference` (the open, or its fill inside the bar) in a bar (or
// finer bar) of these last prices.
BT_KERNEL inline MarkPrices mark_prices(const MarketView& m, int i, double open_reference, double high, double low) {
    MarkPrices mark;
    if (m.mark_open == nullptr) {
        mark.open = open_reference;
        mark.high = high;
        mark.low = low;
        mark.basis = 0.0;
        return mark;
    }
    double open = m.open[i];
    mark.high = m.mark_high[i];
    mark.low = m.mark_low[i];
    mark.basis = m.mark_open[i] - open;
    double start = open_reference == open ? m.mark_open[i] : open_reference + mark.basis;
    mark.open = std::fmin(std::fmax(start, mark.low), mark.high);
    return mark;
}

}  // namespace btforge
