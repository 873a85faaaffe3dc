#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Ambiguous bars]
// A bar gives four prices; the path between them is unknown. For one
// symbol's position or resting order, a bar is *ambiguous* when the order in
// which the path reached the bar's high and its low decides what happened in
// it: our rules settled it (the stop before the targets, a moved stop acting
// from the next bar, a fill inside the bar meeting its stop), not the
// prices. From the price the bar starts at for the position (the open, or
// the fill of an entry inside the bar), levels on one side are met in the
// order of their distance by every path, so only levels on both sides can
// make a bar ambiguous. It is ambiguous when:
//   1. an adverse exit came inside the bar (the stop at its level when the
//      bar began, or the liquidation) and the bar also reached a favourable
//      event: a target (at the open or inside), or a favourable move that
//      lifts the stop (the trailing stop at the bar's extreme);
//   2. no exit at the stop's old level, but a favourable move of this bar
//      (the trailing stop at the bar's extreme, the break-even stop of the
//      partial target) lifted the stop to a level the bar's adverse extreme
//      reaches: up first, the position would have left at it;
//   3. a target exit, and the trailing stop at the bar's extreme is a level
//      the bar's adverse extreme reaches (the same reading as 2);
//   4. a resting entry filled inside the bar on the favourable side of the
//      open (a buy stop above it, a sell stop below it), and the bar then
//      took the position out (stop or liquidation): the bar's adverse
//      extreme may have come before the fill.
// Not ambiguous: a gap through the stop or to the liquidation at the open
// (the open comes first, the position is gone); levels on one side only
// (the stop and the liquidation, nearer first; a limit entry and its stop,
// which the path meets in that order); a bar that reaches both targets and
// nothing adverse takes the partial one only, which is our rule (one exit
// per position and bar, SPEC §6), not an unknown order. Each ambiguous
// symbol and bar counts once in the row's `ambiguous_bars`
// (metrics_on_ambiguous_bar). Readings 1-3 are the brackets of the default
// strategy, 4 the stop entries of band_reversion; a strategy whose only
// exits are a stop and the liquidation (sma_cross, xs_momentum) has no
// ambiguous bars. The count says how many of a row's bars our order rules
// decided (docs/ACCOUNTING.md, "The order inside a bar"). Where the market
// has finer bars, the default strategy settles its ambiguous bars on them
// instead (Note [Walking the finer bars of a bracket]) and counts only those
// whose finer bars are missing or disagree with them.

// Readings 2 and 3: the bar's adverse extreme reaches `stop`, a level this
// bar set (a break-even or trailing stop). For a position that came through
// the bar's exits at its old stop the extreme stayed beyond that one, so a
// stop it reaches is one the bar lifted: no copy of the old level is kept.
BT_KERNEL inline int stop_touched(int side, double stop, double high, double low) {
    return side > 0 ? (low <= stop ? 1 : 0) : (high >= stop ? 1 : 0);
}

}  // namespace btforge
