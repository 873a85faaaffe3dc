#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reference/market/market_view.h"

namespace btforge {

// Order-size rules of one symbol (SPEC §4 instruments file).
struct Instrument {
    double qty_step = 0.001;
    double min_qty = 0.001;
    double price_tick = 0.01;
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

    int n_symbols() const { return static_cast<int>(symbols.size()); }
    int n_bars() const { return static_cast<int>(timestamp_ms.size()); }
    std::size_t index(int symbol, int bar) const {
        return static_cast<std::size_t>(symbol) * timestamp_ms.size() + static_cast<std::size_t>(bar);
    }
    int symbol_index(const std::string& name) const;  // -1 when absent
    MarketView view() const;
};

}  // namespace btforge
