#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reference/margin/default_margin_schedule.h"
#include "reference/margin/margin_schedule.h"
#include "reference/market/market_view.h"

namespace btforge {

// Trading rules of one symbol (SPEC §4 instruments file): order sizes and
// prices, and its maintenance margin tiers and liquidation fee.
struct Instrument {
    double qty_step = 0.001;
    double min_qty = 0.001;
    double price_tick = 0.01;
    MarginSchedule margin = default_margin_schedule();  // Note [Maintenance margin tiers]
};

// The finer bars of every bar, where a run was given them (Note [Finer
// bars] in market_view.h; attach_finer_bars, host/data/finer_bars.h).
struct FinerBars {
    int per_bar = 0;                      // 0: none
    std::vector<std::uint8_t> path;       // [n_symbols * n_bars]
    std::vector<double> open, high, low;  // [n_symbols * n_bars * per_bar]; 0 where path is 0
};

// The mark price's bar of every cell, where a run was given a mark file
// (Note [Mark price] in reference/market/mark_price.h; attach_mark_prices,
// host/data/mark_prices.h). Empty: none, the last price stands in.
struct MarkBars {
    std::vector<double> open, high, low;  // [n_symbols * n_bars]; the last price's own where the file lacks a bar
};

// The owning, host-side market: every symbol aligned on the union of the
// timestamps (see Note [Aligned market layout] in market_view.h). Built by the
// CSV loader or the synthetic generator; the engines read it through view().
struct Market {
    std::vector<std::string> symbols;
    std::vector<Instrument> instruments;         // [n_symbols]
    std::vector<std::int64_t> timestamp_ms;      // [n_bars]
    std::vector<double> open, high, low, close, volume, funding_rate;  // [n_symbols * n_bars]
    std::vector<std::int32_t> funding_events;    // [n_symbols * n_bars]
    std::vector<std::uint8_t> tradable;          // [n_symbols * n_bars]
    std::vector<std::vector<int>> own_bars;      // per symbol: aligned indices where it is tradable, increasing
    // The instruments' fields side by side, for MarketView's per-symbol
    // pointers; whatever sets `instruments` calls set_instrument_columns()
    // (view() checks).
    std::vector<MarginSchedule> margin;
    std::vector<double> qty_step, min_qty, price_tick;
    FinerBars finer;
    MarkBars mark;

    int n_symbols() const { return static_cast<int>(symbols.size()); }
    int n_bars() const { return static_cast<int>(timestamp_ms.size()); }
    std::size_t index(int symbol, int bar) const {
        return static_cast<std::size_t>(symbol) * timestamp_ms.size() + static_cast<std::size_t>(bar);
    }
    int symbol_index(const std::string& name) const;  // -1 when absent
    // The shortest step between consecutive timestamps (the bars' length:
    // a gap is longer, never shorter); 0 with fewer than two bars.
    std::int64_t shortest_step() const;
    void set_instrument_columns();
    // Whether no bar settles a funding time at a nonzero rate (Note [Markets
    // without funding]): read from the columns at each call, never stored,
    // so it cannot go stale; view() sets MarketView::funding_free from it.
    bool funding_free() const;
    MarketView view() const;
};

}  // namespace btforge
