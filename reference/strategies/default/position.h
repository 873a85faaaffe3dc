#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// The bracket of one symbol's open trade (its quantity and entry are the
// portfolio's Holding). Levels are prices on the tick grid.
struct BT_KERNEL BracketPosition {
    double stop;
    double tp1;          // partial target
    double tp;           // final target
    double best_price;   // most favourable price since entry, for trailing
    double entry_atr;    // ATR of the decision bar: the unit of every distance
    int entry_bar;
    int tp1_done;
    int trade_index;
};

// Per-symbol decision state of one combination.
struct BT_KERNEL DefaultSymbolState {
    BracketPosition position;  // meaningful while the symbol's holding is open
    int pending_entry;         // +1 / -1: enter at the next open; 0 none
    double pending_atr;        // ATR of the bar that decided the pending entry
    int pending_exit;          // 1: close at the next open (opposite signal)
    int last_exit_bar;         // for the cooldown
};

}  // namespace btforge
