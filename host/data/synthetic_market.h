#pragma once

#include <cstdint>

#include "host/data/market.h"
#include "host/data/market_builder.h"

namespace btforge {

struct SyntheticMarketOptions {
    std::uint64_t seed = 42;
    int n_symbols = 4;  // 1..kMaxSymbols
    int n_bars = 17520;  // aligned timestamps: two years of hourly bars
    std::int64_t bar_ms = 3'600'000;
    std::int64_t start_ms = 1'704'067'200'000;  // 2024-01-01T00:00:00Z
    std::int64_t funding_interval_ms = kDefaultFundingIntervalMs;
};

// Note [Synthetic market]
// The embedded default market (SPEC §4), so a first run needs no data. Symbols
// SYN1USDT, SYN2USDT, ... sit at distinct price levels (about 30000, 2000,
// 150, 0.5, ...) with matching instruments, and each follows a regime process
// that exercises what real data throws at a strategy: trends up and down,
// mean-reverting ranges, GARCH-like volatility clusters, price gaps (open away
// from the previous close), flat stretches (open = high = low = close, no
// volume), missing bars (the symbol absent for a while; every fourth symbol,
// SYN4USDT first, is also listed late), and a funding rate that drifts between positive and
// negative with the regime.
//
// The output depends only on the options: each symbol draws from its own
// std::mt19937_64 (whose sequence the standard fixes), normals come from a
// sum of uniforms rather than std::normal_distribution (implementation-
// defined), and the arithmetic is + - * / sqrt round only, no libm
// transcendentals, so every x86-64 machine builds the same bits. A symbol's
// series does not depend on how many symbols are asked for.
Market make_synthetic_market(const SyntheticMarketOptions& options = {});

// Note [Synthetic finer bars]
// A path of `per_bar` finer bars through every bar of every symbol of
// `market` (whose bars are bar_ms apart, per_bar dividing it), drawn from
// `seed`: the first opens at the bar's open, the last closes at its close,
// one reaches its high and another its low (in either order), the others
// wander between them, and one finer bar in eight opens away from the
// previous one's close (a gap inside the bar, where a level fills at a
// finer bar's open). Prices stay on the tick. With faulty_one_in N > 0, one
// bar in N loses a finer bar and one in N has its finer highs fall short of
// its high, so that attach_finer_bars finds bars without a path. For
// benchmarks and parity: a made-up path, never the truth of a real bar.
Market make_synthetic_finer_bars(const Market& market, int per_bar, std::int64_t bar_ms, std::uint64_t seed,
                                 int faulty_one_in);

// Note [Synthetic mark prices]
// A mark price's bar for every bar of every symbol of `market`, drawn from
// `seed`: the bar's own prices times 1 + a basis that wanders (a random walk
// of steps of 0.03%, pulled back to 0 by a tenth a bar, so it stays within
// about 0.5%), the mark's high and low a further 0-0.1% beyond the bar's;
// on the tick, low <= open, close <= high. With missing_one_in N > 0, one
// bar in N has no mark bar (attach_mark_prices counts it). For benchmarks
// and parity: a made-up mark, never an exchange's.
Market make_synthetic_mark_bars(const Market& market, std::uint64_t seed, int missing_one_in);

// Whether `per_bar` finer bars fit bars of bar_ms (2 or more, dividing it):
// what make_synthetic_finer_bars accepts, for the options that ask for it.
inline bool finer_bars_fit(int per_bar, std::int64_t bar_ms) { return per_bar >= 2 && bar_ms % per_bar == 0; }

}  // namespace btforge
