#pragma once

// Which group of the ranking a row falls in: shared by the host's ranking
// (host/engine/top_n.h) and the device's top-N selection (host/cuda/kernels/
// top_n_select.h, nvcc with --expt-relaxed-constexpr), so both put a row in
// the same group by the same arithmetic. Plain C++17, no library.

#include "reference/metrics/metrics.h"

namespace btforge {

// Note [Rows with few trades]
// A row whose metrics come from a handful of round trips ranks on luck: on a
// 48-bar window the best Sharpe ratio was a row of one trade (Sharpe 2.74,
// profit factor +inf, issue 29). `sweep --min-trades N` marks every row with
// fewer than N round trips (n_trades, the whole window's; enough_trades=false
// in the CSV, the JSON and the table) and ranks it after every row that has
// N or more, before the rows with non-finite metrics (Note [Rows with
// non-finite metrics]), whose numbers are no results at all. Inside each
// group the order is Note [Deterministic ranking]'s: the metric, then the
// combination id. So the ranking is still one strict total order on ids,
// which every engine applies: the CPU's TopN, the spooled rows of
// --all-rows (Note [Rows spooled to disk]), the device's selection (Note
// [Rank keys]), a merge of shards (the request's min_trades is part of a
// shard's identity) and --rank-by dsr (the period statistics' trades add up
// to n_trades). Marking is not removing: the validation (PBO, walk-forward,
// the deflated Sharpe ratio's trials) still runs over every combination.
//
// The default, 10: below it one trade decides the row. A strategy that wins
// or loses each trade like a coin toss has a flawless record (win rate 1,
// profit factor +inf) over n trades with probability 2^-n: 3% at n = 5, so
// thirty of a thousand such rows look perfect by luck, and 0.1% at n = 10,
// one. The standard error of a win rate over 10 trades, sqrt(p(1-p)/n), is
// still up to 0.16: 10 is a floor, not a proof. A higher default, such as
// the rule of thumb of 30, would reorder sweeps of slow strategies on short
// windows, where every row trades a few times, by separating 29 trades from
// 30. On the
// sma_cross quickstart grid over one week of the synthetic market the best
// Sharpe ratio is a row of 4 trades and the first row of 10 or more ranks
// 18th (parity-tests/cli/validation_test.py). --min-trades 0 turns the
// marking off.
inline constexpr int kDefaultMinTrades = 10;

// The groups in rank order.
enum class RankTier : unsigned char {
    Ranked = 0,     // finite metrics, at least min_trades trades
    FewTrades = 1,  // finite metrics, fewer than min_trades trades
    Invalid = 2,    // non-finite metrics, whatever the trades
};

template <class Row>
constexpr bool has_enough_trades(const Row& m, int min_trades) {
    return m.n_trades >= min_trades;
}

template <class Row>
constexpr RankTier rank_tier(const Row& m, int min_trades) {
    if (!metrics_are_finite(m)) return RankTier::Invalid;
    return has_enough_trades(m, min_trades) ? RankTier::Ranked : RankTier::FewTrades;
}

}  // namespace btforge
