#include "host/data/mark_prices.h"

#include <algorithm>

#include "host/data/data_error.h"
#include "host/data/finer_bars.h"

namespace btforge {

MarkPricesUse attach_mark_prices(Market& market, const Market& mark, const std::string& mark_file) {
    MarkPricesUse use;
    use.bar_ms = market.shortest_step();
    const std::int64_t mark_ms = mark.shortest_step();
    if (mark_ms != use.bar_ms) {
        throw DataError(mark_file, 0, 0, "mark-bar-length",
                        "its bars are " + (mark_ms > 0 ? length_words(mark_ms) : std::string("of unknown length")) +
                            " long, the market's " + (use.bar_ms > 0 ? length_words(use.bar_ms) : std::string("of unknown length")) +
                            ": a mark bar must cover its bar (import both at one length: data import --bar)");
    }
    for (const std::string& symbol : mark.symbols) {
        if (market.symbol_index(symbol) < 0) {
            throw DataError(mark_file, 0, 0, "mark-unknown-symbol",
                            "symbol " + symbol + " is not in the market; a mark file names the market's symbols");
        }
    }
    MarkBars bars{market.open, market.high, market.low};
    for (int s = 0; s < market.n_symbols(); ++s) {
        const int ms = mark.symbol_index(market.symbols[s]);
        for (int t = 0; t < market.n_bars(); ++t) {
            const std::size_t i = market.index(s, t);
            if (market.tradable[i] == 0) continue;
            use.bars += 1;
            if (ms < 0) {
                use.missing += 1;
                continue;
            }
            const auto at = std::lower_bound(mark.timestamp_ms.begin(), mark.timestamp_ms.end(), market.timestamp_ms[t]);
            if (at == mark.timestamp_ms.end() || *at != market.timestamp_ms[t]) {
                use.missing += 1;
                continue;
            }
            const std::size_t j = mark.index(ms, static_cast<int>(at - mark.timestamp_ms.begin()));
            if (mark.tradable[j] == 0) {
                use.missing += 1;
                continue;
            }
            bars.open[i] = mark.open[j];
            bars.high[i] = mark.high[j];
            bars.low[i] = mark.low[j];
            use.with_mark += 1;
        }
    }
    if (use.with_mark == 0) {
        throw DataError(mark_file, 0, 0, "mark-disjoint",
                        "none of the market's " + std::to_string(use.bars) + " bars has its mark bar here (the file's " +
                            "symbols and times meet none of the market's)");
    }
    market.mark = std::move(bars);
    return use;
}

std::string describe_mark_prices(const MarkPricesUse* use, const std::string& mark_file) {
    if (use == nullptr) return "mark price: none (liquidation reads the last price)";
    return "mark price from " + mark_file + " (" + length_words(use->bar_ms) + " bars): " +
           std::to_string(use->with_mark) + " of " + std::to_string(use->bars) + " bars have their mark bar; " +
           std::to_string(use->missing) + " lack one (those keep the last price)";
}

}  // namespace btforge
