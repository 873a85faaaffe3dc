#include "host/data/market.h"

#include <stdexcept>

#include "host/data/margin_schedule_input.h"

namespace btforge {

int Market::symbol_index(const std::string& name) const {
    for (std::size_t i = 0; i < symbols.size(); ++i) {
        if (symbols[i] == name) return static_cast<int>(i);
    }
    return -1;
}

void Market::set_margin_from_instruments() {
    margin.clear();
    for (const Instrument& instrument : instruments) margin.push_back(instrument.margin);
}

MarketView Market::view() const {
    if (n_symbols() > kMaxSymbols) {
        throw std::runtime_error("market has " + std::to_string(n_symbols()) + " symbols; the kernels are built for at most " +
                                 std::to_string(kMaxSymbols));
    }
    MarketView v{};
    v.n_symbols = n_symbols();
    v.n_bars = n_bars();
    v.bar_stride = n_bars();
    v.timestamp_ms = timestamp_ms.data();
    v.open = open.data();
    v.high = high.data();
    v.low = low.data();
    v.close = close.data();
    v.volume = volume.data();
    v.funding_rate = funding_rate.data();
    v.funding_events = funding_events.data();
    v.tradable = tradable.data();
    if (margin.size() != instruments.size() || instruments.size() != symbols.size()) {
        throw std::logic_error("market: " + std::to_string(margin.size()) + " margin schedules and " +
                               std::to_string(instruments.size()) + " instruments for " + std::to_string(symbols.size()) +
                               " symbols (set_margin_from_instruments)");
    }
    for (std::size_t s = 0; s < margin.size(); ++s) {
        if (!same_margin_schedule(margin[s], instruments[s].margin)) {
            throw std::logic_error("market: the margin schedule of " + symbols[s] +
                                   " differs from its instrument's (set_margin_from_instruments)");
        }
    }
    v.margin = margin.data();
    for (int s = 0; s < n_symbols(); ++s) {
        v.qty_step[s] = instruments[static_cast<std::size_t>(s)].qty_step;
        v.min_qty[s] = instruments[static_cast<std::size_t>(s)].min_qty;
        v.price_tick[s] = instruments[static_cast<std::size_t>(s)].price_tick;
    }
    return v;
}

}  // namespace btforge
