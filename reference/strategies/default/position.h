#pragma once

#include "reference/accounting/holding.h"
#include "reference/kernel_marker.h"

namespace btforge {

// One symbol's open trade with its bracket. Levels are prices on the tick grid.
struct BT_KERNEL BracketPosition {
    Holding holding;
    double stop;
    double tp1;          // partial target
    double tp;           // final target
    double best_price;   // most favourable price since entry, for trailing
    double entry_atr;    // ATR of the decision bar: the unit of every distance
    int entry_bar;
    int tp1_done;
    int trade_index;
};

// Per-symbol state of one combination.
struct BT_KERNEL DefaultSymbolState {
    BracketPosition position;  // holding.side == 0 when flat
    int pending_entry;         // +1 / -1: enter at the next open; 0 none
    double pending_atr;        // ATR of the bar that decided the pending entry
    int pending_exit;          // 1: close at the next open (opposite signal)
    int last_exit_bar;         // for the cooldown; very negative before any exit
};

}  // namespace btforge
