#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Why a fill happened: the trade log's "reason" column.
enum BT_KERNEL FillReason : int {
    kEntry = 0,
    kStopLoss = 1,     // the bar reached the stop
    kStopGap = 2,      // the bar opened through the stop: filled at the open
    kPartialTarget = 3,
    kTarget = 4,
    kSignalExit = 5,   // opposite signal, filled at the next open
    kMaxHold = 6,      // held max_hold_bars, closed at the close
    kEndOfData = 7,    // last bar, closed at the close
    kRestingEntry = 8, // a resting limit or stop entry filled inside the bar (reference/orders/)
    kLiquidation = 9,  // the exchange closed the position (Note [Liquidation rule])
    kFunding = 10,     // not a fill: one funding settlement on the open holding (Note [Funding in the fill log])
};

struct BT_KERNEL FillRecord {
    int bar;
    int symbol;
    int reason;       // FillReason
    int trade_dir;    // +1 buy, -1 sell
    int trade_index;  // round trip this fill belongs to (0-based, in order of entry)
    double qty;
    double price;
    double fee;
    double realized_pnl;  // price PnL of a closing fill, 0 for entries
    double cash_after;
    double funding;  // kFunding: paid by this settlement (negative: received); 0 for a fill
};

// Note [Funding in the fill log]
// The log is the account's ledger: every change of cash is one record, in
// the order the reference made it. A fill changes cash by realized_pnl -
// fee; a funding settlement (reason kFunding, reference/portfolio/
// settle_funding.h) by -funding, with qty the holding's quantity, price
// the price its notional was taken at and trade_dir the holding's side.
// So a trade's funding, its net PnL and the cash after every record are
// sums over the log in its order (host/report/round_trips.cpp), whatever
// order a strategy gives the steps of its bar. The trade log a user reads
// (trades.csv) lists the fills only; a sweep passes no log, so the records
// cost the GPU nothing (the null log is a constant its kernels fold away).

// Note [Fill log without a heap]
// A replay wants every fill; a sweep wants none. The kernel writes records
// while count < capacity and always counts, so a caller can run once with
// capacity 0 to learn the size and again with a buffer that large. A null
// log costs one pointer test per fill.
struct BT_KERNEL FillLog {
    FillRecord* records;
    int capacity;
    int count;
};

BT_KERNEL inline void log_fill(FillLog* log, const FillRecord& record) {
    if (log == nullptr) return;
    if (log->count < log->capacity) log->records[log->count] = record;
    log->count += 1;
}

}  // namespace btforge
