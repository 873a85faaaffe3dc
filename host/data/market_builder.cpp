#include "host/data/market_builder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace btforge {

namespace {

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

void check_preconditions(const std::vector<SymbolBars>& symbols, std::int64_t funding_interval_ms) {
    if (funding_interval_ms <= 0) {
        throw std::invalid_argument("funding interval must be positive, got " + std::to_string(funding_interval_ms) +
                                    " ms");
    }
    if (symbols.size() > static_cast<std::size_t>(kMaxSymbols)) {
        throw std::invalid_argument("market has " + std::to_string(symbols.size()) +
                                    " symbols; the kernels are built for at most " + std::to_string(kMaxSymbols));
    }
    std::set<std::string> seen;
    for (const SymbolBars& s : symbols) {
        if (s.symbol.empty()) throw std::invalid_argument("a symbol name is empty");
        if (!seen.insert(s.symbol).second) throw std::invalid_argument("symbol " + s.symbol + " appears twice");
        if (s.bars.empty()) throw std::invalid_argument("symbol " + s.symbol + " has no bars");
        for (std::size_t k = 1; k < s.bars.size(); ++k) {
            if (s.bars[k].timestamp_ms <= s.bars[k - 1].timestamp_ms) {
                throw std::invalid_argument("bars of " + s.symbol + " are not strictly increasing in time at bar " +
                                            std::to_string(k));
            }
        }
    }
}

}  // namespace

std::int64_t funding_times_between(std::int64_t previous_ms, std::int64_t current_ms, std::int64_t interval_ms) {
    return floor_div(current_ms, interval_ms) - floor_div(previous_ms, interval_ms);
}

Market build_market(std::vector<SymbolBars> symbols, std::int64_t funding_interval_ms) {
    check_preconditions(symbols, funding_interval_ms);

    Market market;
    std::size_t total = 0;
    for (const SymbolBars& s : symbols) total += s.bars.size();
    market.timestamp_ms.reserve(total);
    for (const SymbolBars& s : symbols) {
        // Each symbol's times are increasing (checked above): merging them in
        // is linear, where a sort of the union was not.
        const std::size_t before = market.timestamp_ms.size();
        for (const Bar& b : s.bars) market.timestamp_ms.push_back(b.timestamp_ms);
        const auto middle = market.timestamp_ms.begin() + static_cast<std::ptrdiff_t>(before);
        std::inplace_merge(market.timestamp_ms.begin(), middle, market.timestamp_ms.end());
    }
    market.timestamp_ms.erase(std::unique(market.timestamp_ms.begin(), market.timestamp_ms.end()),
                              market.timestamp_ms.end());

    // MarketView indexes with int: symbol * n_bars + bar must not overflow.
    const std::size_t n_bars = market.timestamp_ms.size();
    const std::size_t n_cells = symbols.size() * n_bars;
    if (n_cells > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        throw std::invalid_argument(std::to_string(symbols.size()) + " symbols x " + std::to_string(n_bars) +
                                    " aligned bars exceed the kernels' int indexing");
    }

    const double nan = std::numeric_limits<double>::quiet_NaN();
    market.open.assign(n_cells, nan);
    market.high.assign(n_cells, nan);
    market.low.assign(n_cells, nan);
    market.close.assign(n_cells, nan);
    market.volume.assign(n_cells, 0.0);
    market.funding_rate.assign(n_cells, 0.0);
    market.funding_events.assign(n_cells, 0);
    market.tradable.assign(n_cells, 0);

    for (std::size_t si = 0; si < symbols.size(); ++si) {
        SymbolBars& s = symbols[si];
        const int sym = static_cast<int>(si);
        std::vector<int> own;
        own.reserve(s.bars.size());
        std::size_t k = 0;  // next own bar of this symbol
        double last_close = nan;
        for (std::size_t t = 0; t < n_bars; ++t) {
            const std::size_t i = market.index(sym, static_cast<int>(t));
            if (k < s.bars.size() && s.bars[k].timestamp_ms == market.timestamp_ms[t]) {
                const Bar& b = s.bars[k];
                market.open[i] = b.open;
                market.high[i] = b.high;
                market.low[i] = b.low;
                market.close[i] = b.close;
                market.volume[i] = b.volume;
                market.funding_rate[i] = b.funding_rate;
                if (k > 0) {
                    const std::int64_t events =
                        funding_times_between(s.bars[k - 1].timestamp_ms, b.timestamp_ms, funding_interval_ms);
                    if (events > std::numeric_limits<std::int32_t>::max()) {
                        throw std::invalid_argument("symbol " + s.symbol + " settles " + std::to_string(events) +
                                                    " funding times in one bar");
                    }
                    market.funding_events[i] = static_cast<std::int32_t>(events);
                }
                market.tradable[i] = 1;
                own.push_back(static_cast<int>(t));
                last_close = b.close;
                ++k;
            } else if (k > 0) {
                // Note [Aligned market layout]: a gap holds the last close.
                market.open[i] = market.high[i] = market.low[i] = market.close[i] = last_close;
            }
        }
        market.symbols.push_back(std::move(s.symbol));
        market.instruments.push_back(s.instrument);
        market.own_bars.push_back(std::move(own));
    }
    market.set_instrument_columns();
    return market;
}

}  // namespace btforge
