#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "host/data/market_builder.h"

namespace btforge {

// Note [Market rules]
// What every bar and symbol of a market satisfies, wherever it comes from: a
// row of any CSV btforge reads (csv_bar and csv_funding_rate for every
// format, the long CSV's reader for times and symbols) or a market cache
// (Note [Market cache]: a cache is checked bar by bar as a parsed CSV is, so
// a damaged or forged one whose checksum is right is refused all the same).
// The rules and their ids live here once; each reader only says where a
// break is (a CSV's line and field, a cache's symbol and bar):
//   - each price (open, high, low, close) within Note [Market value limits]:
//     not-a-number, non-positive-price, price-out-of-range;
//   - the volume: not-a-number, negative-volume, volume-out-of-range;
//   - the bar's shape: high-below-low, high-below-open-close,
//     low-above-open-close;
//   - the funding rate per funding time: not-a-number,
//     funding-rate-out-of-range;
//   - a symbol's bar times: timestamp-out-of-range (years 0000..9999, Note
//     [Epoch units]); strictly increasing (duplicate-timestamp,
//     unsorted-timestamps); at most 2^31-1 funding times settled by one bar
//     (too-many-funding-times);
//   - a symbol's name: bad-symbol (empty, surrounding spaces, a control
//     character).
// A CSV's text that is not a number is refused before these (csv_number),
// so not-a-number here is for values that come as numbers (a cache). The
// instruments' rules are Note [Instrument size range] and Note [Maintenance
// margin tiers] (instrument_break in instruments.h, for both readers too).

enum class BarField { open, high, low, close, volume, funding_rate };

// A rule of Note [Market rules] that a value breaks: its id, the field to
// point at, and what is wrong in words.
struct MarketRuleBreak {
    std::string rule;
    BarField field = BarField::open;
    std::string message;
};

// How a reader shows a field's value in a message: a CSV its text in
// quotes, a cache the number.
using ShowBarField = std::function<std::string(BarField)>;

// `field` is open, high, low or close.
std::optional<MarketRuleBreak> price_break(BarField field, double price, const ShowBarField& show);
std::optional<MarketRuleBreak> volume_break(double volume, const ShowBarField& show);
// high >= low, high >= open and close, low <= open and close.
std::optional<MarketRuleBreak> bar_shape_break(const Bar& bar, const ShowBarField& show);
// `name` is the rate as the reader calls it ("funding_rate", "rate"), `per`
// what one rate pays for ("funding time", "settlement").
std::optional<MarketRuleBreak> funding_rate_break(double rate, std::string_view name, std::string_view per,
                                                  const ShowBarField& show);
// Every value rule above, in that order (the funding rate as a bar's
// "funding_rate" per "funding time").
std::optional<MarketRuleBreak> bar_break(const Bar& bar, const ShowBarField& show);

// The rule a symbol's bar at `ms` breaks after its bar at `previous_ms`
// (nullopt for its first bar): timestamp-out-of-range, duplicate-timestamp,
// unsorted-timestamps, too-many-funding-times; its words are the reader's,
// who knows where both bars are.
struct BarTimeBreak {
    std::string rule;
    std::int64_t funding_times = 0;  // for too-many-funding-times
};
std::optional<BarTimeBreak> bar_time_break(std::optional<std::int64_t> previous_ms, std::int64_t ms,
                                           std::int64_t funding_interval_ms);

// bad-symbol: "symbol "x" is empty or has surrounding spaces" or "...
// contains a control character"; nullopt for a good name.
std::optional<std::string> symbol_name_break(std::string_view symbol);

}  // namespace btforge
