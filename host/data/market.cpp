#include "host/data/market.h"

#include <algorithm>
#include <stdexcept>

#include "host/data/margin_schedule_input.h"

namespace btforge {

int Market::symbol_index(const std::string& name) const {
    for (std::size_t i = 0; i < symbols.size(); ++i) {
        if (symbols[i] == name) return static_cast<int>(i);
    }
    return -1;
}

void Market::set_instrument_columns() {
    margin.clear();
    qty_step.clear();
    min_qty.clear();
    price_tick.clear();
    for (const Instrument& instrument : instruments) {
        margin.push_back(instrument.margin);
        qty_step.push_back(instrument.qty_step);
        min_qty.push_back(instrument.min_qty);
        price_tick.push_back(instrument.price_tick);
    }
}

bool Market::funding_free() const {
    const std::size_t n = std::min(funding_events.size(), funding_rate.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (funding_events[i] > 0 && funding_rate[i] != 0.0) return false;
    }
    return true;
}

std::int64_t Market::shortest_step() const {
    std::int64_t step = 0;
    for (std::size_t t = 1; t < timestamp_ms.size(); ++t) {
        const std::int64_t d = timestamp_ms[t] - timestamp_ms[t - 1];
        if (d > 0 && (step == 0 || d < step)) step = d;
    }
    return step;
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
    v.funding_free = funding_free() ? 1 : 0;
    v.timestamp_ms = timestamp_ms.data();
    v.open = open.data();
    v.high = high.data();
    v.low = low.data();
    v.close = close.data();
    v.volume = volume.data();
    v.funding_rate = funding_rate.data();
    v.funding_events = funding_events.data();
    v.tradable = tradable.data();
    const std::size_t n = symbols.size();
    if (instruments.size() != n || margin.size() != n || qty_step.size() != n || min_qty.size() != n ||
        price_tick.size() != n) {
        throw std::logic_error("market: " + std::to_string(instruments.size()) + " instruments and " +
                               std::to_string(margin.size()) + " instrument columns for " + std::to_string(n) +
                               " symbols (set_instrument_columns)");
    }
    for (std::size_t s = 0; s < n; ++s) {
        const Instrument& instrument = instruments[s];
        if (!same_margin_schedule(margin[s], instrument.margin) || qty_step[s] != instrument.qty_step ||
            min_qty[s] != instrument.min_qty || price_tick[s] != instrument.price_tick) {
            throw std::logic_error("market: the instrument columns of " + symbols[s] +
                                   " differ from its instrument (set_instrument_columns)");
        }
    }
    v.margin = margin.data();
    v.qty_step = qty_step.data();
    v.min_qty = min_qty.data();
    v.price_tick = price_tick.data();
    if (finer.per_bar > 0) {
        const std::size_t cells = n * timestamp_ms.size();
        if (finer.path.size() != cells || finer.open.size() != cells * finer.per_bar ||
            finer.high.size() != cells * finer.per_bar || finer.low.size() != cells * finer.per_bar) {
            throw std::logic_error("market: finer bars of another market's size (attach_finer_bars)");
        }
        v.fine_per_bar = finer.per_bar;
        v.fine_path = finer.path.data();
        v.fine_open = finer.open.data();
        v.fine_high = finer.high.data();
        v.fine_low = finer.low.data();
    }
    if (!mark.open.empty()) {
        const std::size_t cells = n * timestamp_ms.size();
        if (mark.open.size() != cells || mark.high.size() != cells || mark.low.size() != cells) {
            throw std::logic_error("market: mark bars of another market's size (attach_mark_prices)");
        }
        v.mark_open = mark.open.data();
        v.mark_high = mark.high.data();
        v.mark_low = mark.low.data();
    }
    return v;
}

}  // namespace btforge
