#include "host/data/csv_bar_fields.h"

#include <string>

#include "host/data/market_limits.h"

namespace btforge {

namespace {

double price(const CsvRow& row, std::size_t index, const char* name) {
    const double value = csv_number(row, index, name);
    if (price_in_range(value)) return value;
    const std::string what = std::string(name) + " " + in_quotes(row.fields[index].text);
    if (!(value > 0.0)) row.fail(index, "non-positive-price", what + " must be positive");
    row.fail(index, "price-out-of-range",
             what + " is outside " + shortest_text(kMinPrice) + ".." + shortest_text(kMaxPrice) +
                 ", the prices a market may hold");
}

}  // namespace

Bar csv_bar(const CsvRow& row, const BarFieldIndex& at) {
    const auto text = [&](std::size_t index) { return in_quotes(row.fields[index].text); };
    Bar bar{};
    bar.open = price(row, at.open, "open");
    bar.high = price(row, at.high, "high");
    bar.low = price(row, at.low, "low");
    bar.close = price(row, at.close, "close");
    bar.volume = csv_number(row, at.volume, "volume");
    if (bar.volume < 0.0) row.fail(at.volume, "negative-volume", "volume " + text(at.volume) + " is negative");
    if (!volume_in_range(bar.volume)) {
        row.fail(at.volume, "volume-out-of-range",
                 "volume " + text(at.volume) + " is above " + shortest_text(kMaxVolume) +
                     ", the largest a market may hold");
    }
    if (bar.high < bar.low) {
        row.fail(at.high, "high-below-low", "high " + text(at.high) + " is below low " + text(at.low));
    }
    if (bar.high < bar.open || bar.high < bar.close) {
        row.fail(at.high, "high-below-open-close",
                 "high " + text(at.high) + " is below open " + text(at.open) + " or close " + text(at.close));
    }
    if (bar.low > bar.open || bar.low > bar.close) {
        row.fail(at.low, "low-above-open-close",
                 "low " + text(at.low) + " is above open " + text(at.open) + " or close " + text(at.close));
    }
    return bar;
}

double csv_funding_rate(const CsvRow& row, std::size_t index, std::string_view name, std::string_view per) {
    const double rate = csv_number(row, index, name);
    if (!funding_rate_in_range(rate)) {
        row.fail(index, "funding-rate-out-of-range",
                 std::string(name) + " " + in_quotes(row.fields[index].text) + " is outside -" +
                     shortest_text(kMaxAbsFundingRate) + ".." + shortest_text(kMaxAbsFundingRate) + " (a rate per " +
                     std::string(per) + " of at most 100% of the position's value)");
    }
    return rate;
}

}  // namespace btforge
