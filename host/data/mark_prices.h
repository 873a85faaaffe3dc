#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "host/data/market.h"

namespace btforge {

// What attach_mark_prices found, of the market's tradable bars (Note
// [Checking mark prices]).
struct MarkPricesUse {
    std::int64_t bar_ms = 0;     // the bars' length, the market's and the mark file's
    std::size_t bars = 0;        // tradable bars of the market
    std::size_t with_mark = 0;   // those with their mark bar
    std::size_t missing = 0;     // those without: the last price stands in
};

// Note [Checking mark prices]
// A mark file (`--mark FILE`) holds the mark price's bars in the market's
// own long CSV format (Binance's mark-price klines come in through `btforge
// data import --format binance-klines`, as its trade klines do), read and
// checked by the same rules (Note [Market rules]). The mark bar of a cell is
// that of its symbol at its timestamp. Refused (DataError), before any
// cell is changed:
//   - mark-bar-length: the file's bars are not the market's length (a
//     1-minute mark beside hourly bars would give each hour a minute's
//     range);
//   - mark-unknown-symbol: a symbol the market does not have (a typo would
//     leave a symbol on the last price unseen);
//   - mark-disjoint: no tradable bar of the market has its mark bar (the
//     file covers other dates).
// A tradable bar whose mark bar the file lacks keeps the last price's own
// open, high and low, and is counted for the run header; so does every
// bar of a symbol the file lacks.
MarkPricesUse attach_mark_prices(Market& market, const Market& mark, const std::string& mark_file);

// "mark price from FILE (1-hour bars): 70080 of 70080 bars have their mark
// bar; 0 lack one (those keep the last price)", for the market's
// description (run header and result JSON); without a file (null), "mark
// price: none (liquidation reads the last price)".
std::string describe_mark_prices(const MarkPricesUse* use, const std::string& mark_file);

}  // namespace btforge
