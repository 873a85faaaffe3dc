#pragma once

#include <cstddef>
#include <string_view>

#include "host/data/csv_fields.h"
#include "host/data/market_builder.h"

namespace btforge {

// The fields of a bar, read from any CSV format btforge takes in (the long
// CSV, exchange dumps, a mapped generic CSV) under the rules of Note [Market
// rules] (which a market cache meets too), each violation a DataError at its
// field.

struct BarFieldIndex {
    std::size_t open, high, low, close, volume;
};

// Open, high, low, close and volume of `row` (timestamp and funding rate
// left 0): not-a-number, non-positive-price, price-out-of-range,
// negative-volume, volume-out-of-range, high-below-low,
// high-below-open-close, low-above-open-close.
Bar csv_bar(const CsvRow& row, const BarFieldIndex& at);

// A funding rate within -1..1 (funding-rate-out-of-range otherwise); `name`
// is the column as the file calls it, `per` what one rate pays for
// ("funding time", "settlement").
double csv_funding_rate(const CsvRow& row, std::size_t index, std::string_view name, std::string_view per);

}  // namespace btforge
