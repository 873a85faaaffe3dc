#pragma once

// The key of a combination's outcome (Note [Distinct outcomes]), hashed by
// one function for the host (btforge::Metrics) and for the device
// (device::Metrics, in host/cuda/kernels/top_n_select.h), whose fields have
// the same names, so that both group the same combinations. Plain C++17
// arithmetic.

#include <cstring>

#ifdef __CUDACC__
#define BTFORGE_OUTCOME_HD __host__ __device__
#else
#define BTFORGE_OUTCOME_HD
#endif

namespace btforge {

// Note [Distinct outcomes]
// Many combinations of a grid give one result: a parameter that the chosen
// mode does not read, a stop wider than any move of the market, a period
// that never crosses. The outcome of a combination is what the sweep
// reports of it: its metrics (SPEC §7) in the order of the metric columns
// and, when the run keeps them, its period statistics, period by period in
// the order of the period columns, value for value (outcome_of_row lists
// the fields; a test holds the list to the columns). Values are compared as
// numbers: an integer as the double it converts to exactly, -0 as +0, and
// every NaN as one NaN (a NaN's payload is not a result, and the CPU and
// the GPU make different ones). Combinations of equal outcomes are one
// outcome; a sweep counts its distinct outcomes and ranks outcomes, each
// shown by its smallest combination id (which ranks first among its
// equals: Note [Deterministic ranking]) with the values of every parameter
// that differs inside it.
// Outcomes are compared by a 128-bit key hashed from that sequence of
// values: two lanes of 64 bits, each a chain of a multiply-xorshift mixer
// (the finalizer of SplitMix64) over the values and their positions, and
// the count folded in at the end. The chance that two different outcomes
// among N share a key is about N^2 / 2^129: below 1e-26 for a million.

struct OutcomeKey {
    unsigned long long high;
    unsigned long long low;
};

BTFORGE_OUTCOME_HD inline bool operator==(const OutcomeKey& a, const OutcomeKey& b) {
    return a.high == b.high && a.low == b.low;
}
BTFORGE_OUTCOME_HD inline bool operator!=(const OutcomeKey& a, const OutcomeKey& b) { return !(a == b); }
BTFORGE_OUTCOME_HD inline bool operator<(const OutcomeKey& a, const OutcomeKey& b) {
    return a.high != b.high ? a.high < b.high : a.low < b.low;
}

struct OutcomeHasher {
    unsigned long long a;
    unsigned long long b;
    unsigned long long count;
};

BTFORGE_OUTCOME_HD inline unsigned long long outcome_mix(unsigned long long x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

BTFORGE_OUTCOME_HD inline OutcomeHasher outcome_hasher() {
    OutcomeHasher h;
    h.a = 0x243f6a8885a308d3ull;  // digits of pi: any two distinct seeds
    h.b = 0x13198a2e03707344ull;
    h.count = 0;
    return h;
}

// The bits a value is compared by: -0 as +0, every NaN as one NaN.
BTFORGE_OUTCOME_HD inline unsigned long long outcome_bits(double value) {
    if (value != value) return 0x7ff8000000000000ull;
    if (value == 0.0) return 0;
#ifdef __CUDA_ARCH__
    return static_cast<unsigned long long>(__double_as_longlong(value));
#else
    unsigned long long bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
#endif
}

BTFORGE_OUTCOME_HD inline void outcome_add(OutcomeHasher& h, double value) {
    const unsigned long long bits = outcome_bits(value);
    h.count += 1;
    h.a = outcome_mix(h.a ^ bits) + h.count;
    h.b = outcome_mix(h.b + (bits << 29 | bits >> 35) + h.count * 0x9e3779b97f4a7c15ull);
}

BTFORGE_OUTCOME_HD inline OutcomeKey outcome_key(const OutcomeHasher& h) {
    OutcomeKey key;
    key.high = outcome_mix(h.a ^ h.count);
    key.low = outcome_mix(h.b ^ (h.count << 1));
    return key;
}

// The key of a row and its `n_periods` period statistics: every field in
// declaration order, which is the column order (SPEC §7; a test holds it to
// metric_columns() and period_columns(), and row_outcome.cpp the sizes).
template <class Row, class Period>
BTFORGE_OUTCOME_HD inline OutcomeKey outcome_of_row(const Row& m, const Period* periods, int n_periods) {
    OutcomeHasher h = outcome_hasher();
    outcome_add(h, m.final_equity);
    outcome_add(h, m.total_return);
    outcome_add(h, m.net_pnl);
    outcome_add(h, m.gross_profit);
    outcome_add(h, m.gross_loss);
    outcome_add(h, m.fees_paid);
    outcome_add(h, m.funding_paid);
    outcome_add(h, static_cast<double>(m.n_trades));
    outcome_add(h, static_cast<double>(m.n_wins));
    outcome_add(h, m.win_rate);
    outcome_add(h, m.profit_factor);
    outcome_add(h, m.max_drawdown);
    outcome_add(h, m.sharpe);
    outcome_add(h, m.sortino);
    outcome_add(h, m.calmar);
    outcome_add(h, m.exposure);
    outcome_add(h, m.avg_trade_return);
    outcome_add(h, static_cast<double>(m.max_consecutive_losses));
    outcome_add(h, static_cast<double>(m.n_liquidations));
    outcome_add(h, m.liquidation_loss);
    outcome_add(h, static_cast<double>(m.ambiguous_bars));
    outcome_add(h, static_cast<double>(m.magnified_bars));
    for (int i = 0; i < n_periods; ++i) {
        const Period& p = periods[i];
        outcome_add(h, p.return_sum);
        outcome_add(h, p.return_sum_squares);
        outcome_add(h, p.downside_sum_squares);
        outcome_add(h, p.return_sum_cubes);
        outcome_add(h, p.return_sum_fourths);
        outcome_add(h, p.start_equity);
        outcome_add(h, p.end_equity);
        outcome_add(h, p.max_drawdown);
        outcome_add(h, p.gross_profit);
        outcome_add(h, p.gross_loss);
        outcome_add(h, p.fees);
        outcome_add(h, p.funding);
        outcome_add(h, static_cast<double>(p.bars));
        outcome_add(h, static_cast<double>(p.trades));
        outcome_add(h, static_cast<double>(p.wins));
    }
    return outcome_key(h);
}

}  // namespace btforge
