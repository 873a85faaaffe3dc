#pragma once

#include "reference/kernel_marker.h"

namespace btforge {

// Note [Cross and isolated margin]
// Every position of a combination's account is margined one way, the
// account's margin mode (AccountConfig::margin_mode; the spec's or grid's
// "account": {"margin_mode": "cross" | "isolated"}, or --margin-mode):
//   cross (the default): one margin balance for the whole account, the cash
//     (wallet balance) plus every open position's unrealized PnL; a
//     position is liquidated when that balance falls to the maintenance
//     margin of all of them (Note [Liquidation rule]);
//   isolated: each position has a margin of its own, posted when it opens
//     (its notional over the leverage the strategy opens it at), less the
//     funding it pays, released in proportion by partial closes; it is
//     liquidated when that margin plus its own unrealized PnL falls to its
//     own maintenance margin, and it can never lose more than that margin.
// Either way the cash stays the account's whole wallet: isolated margins
// are a partition of it, not a transfer out of it, so fills, fees and
// funding book exactly as before margin existed.
enum BT_KERNEL MarginMode : int { kCrossMargin = 0, kIsolatedMargin = 1 };

// Compile-time maximum number of maintenance tiers of one instrument
// (exchanges publish up to about a dozen).
BT_KERNEL inline constexpr int kMaxMarginTiers = 16;

// Note [Maintenance margin tiers]
// An instrument's maintenance margin is tiered by the position's notional N
// (quantity x price), as exchanges publish it (Binance's "leverage and
// margin" brackets: notional floor, maintenance margin rate,
// maintenance amount "cum"): tier k holds the notionals in
// [notional_floor[k], notional_floor[k + 1]) and requires
//     MM(N) = N * rate[k] - amount[k].
// The first floor is 0 and the floors increase; the rates are in (0, 1) and
// never decrease; each amount is the one that makes MM continuous at its
// floor, amount[k] = amount[k - 1] + notional_floor[k] * (rate[k] - rate[k - 1])
// with amount[0] = 0 (Binance's published formula for the maintenance
// amount). Continuity and rising rates make MM convex: it is the largest
// of the tiers' lines, MM(N) = max_k (N * rate[k] - amount[k]), which is
// what makes the liquidation price a plain maximum or minimum over the
// tiers (Note [Liquidation price]). The host checks these rules where an
// instruments file gives a schedule (host/data/instruments.cpp).
// liquidation_fee is the fraction of the notional a liquidation fill pays
// (Note [Liquidation fill]). The default schedule and fee are Note [Default
// margin schedule].
struct BT_KERNEL MarginSchedule {
    int n_tiers;  // 1..kMaxMarginTiers
    double liquidation_fee;
    double notional_floor[kMaxMarginTiers];
    double rate[kMaxMarginTiers];
    double amount[kMaxMarginTiers];
};

}  // namespace btforge
