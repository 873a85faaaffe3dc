#include "host/data/market_rules.h"

#include <cmath>
#include <limits>

#include "host/data/csv_fields.h"
#include "host/data/market_limits.h"
#include "host/data/timestamp_parse.h"

namespace btforge {

namespace {

const char* field_name(BarField field) {
    switch (field) {
        case BarField::open: return "open";
        case BarField::high: return "high";
        case BarField::low: return "low";
        case BarField::close: return "close";
        case BarField::volume: return "volume";
        case BarField::funding_rate: return "funding_rate";
    }
    return "?";
}

MarketRuleBreak broken(std::string rule, BarField field, std::string message) {
    return MarketRuleBreak{std::move(rule), field, std::move(message)};
}

}  // namespace

std::optional<MarketRuleBreak> price_break(BarField field, double price, const ShowBarField& show) {
    if (price_in_range(price)) return std::nullopt;
    const std::string what = std::string(field_name(field)) + " " + show(field);
    if (std::isnan(price)) return broken("not-a-number", field, what + " is not a number");
    if (!(price > 0.0)) return broken("non-positive-price", field, what + " must be positive");
    return broken("price-out-of-range", field,
                  what + " is outside " + shortest_text(kMinPrice) + ".." + shortest_text(kMaxPrice) +
                      ", the prices a market may hold");
}

std::optional<MarketRuleBreak> volume_break(double volume, const ShowBarField& show) {
    if (volume_in_range(volume)) return std::nullopt;
    const BarField field = BarField::volume;
    if (std::isnan(volume)) return broken("not-a-number", field, "volume " + show(field) + " is not a number");
    if (volume < 0.0) return broken("negative-volume", field, "volume " + show(field) + " is negative");
    return broken("volume-out-of-range", field,
                  "volume " + show(field) + " is above " + shortest_text(kMaxVolume) +
                      ", the largest a market may hold");
}

std::optional<MarketRuleBreak> bar_shape_break(const Bar& bar, const ShowBarField& show) {
    using enum BarField;
    if (bar.high < bar.low) return broken("high-below-low", high, "high " + show(high) + " is below low " + show(low));
    if (bar.high < bar.open || bar.high < bar.close) {
        return broken("high-below-open-close", high,
                      "high " + show(high) + " is below open " + show(open) + " or close " + show(close));
    }
    if (bar.low > bar.open || bar.low > bar.close) {
        return broken("low-above-open-close", low,
                      "low " + show(low) + " is above open " + show(open) + " or close " + show(close));
    }
    return std::nullopt;
}

std::optional<MarketRuleBreak> funding_rate_break(double rate, std::string_view name, std::string_view per,
                                                  const ShowBarField& show) {
    if (funding_rate_in_range(rate)) return std::nullopt;
    const BarField field = BarField::funding_rate;
    const std::string what = std::string(name) + " " + show(field);
    if (std::isnan(rate)) return broken("not-a-number", field, what + " is not a number");
    return broken("funding-rate-out-of-range", field,
                  what + " is outside -" + shortest_text(kMaxAbsFundingRate) + ".." +
                      shortest_text(kMaxAbsFundingRate) + " (a rate per " + std::string(per) +
                      " of at most 100% of the position's value)");
}

std::optional<MarketRuleBreak> bar_break(const Bar& bar, const ShowBarField& show) {
    using enum BarField;
    for (const auto& [field, value] : {std::pair{open, bar.open}, std::pair{high, bar.high}, std::pair{low, bar.low},
                                       std::pair{close, bar.close}}) {
        if (auto b = price_break(field, value, show)) return b;
    }
    if (auto b = volume_break(bar.volume, show)) return b;
    if (auto b = bar_shape_break(bar, show)) return b;
    return funding_rate_break(bar.funding_rate, "funding_rate", "funding time", show);
}

std::optional<BarTimeBreak> bar_time_break(std::optional<std::int64_t> previous_ms, std::int64_t ms,
                                           std::int64_t funding_interval_ms) {
    if (!timestamp_in_range(ms)) return BarTimeBreak{"timestamp-out-of-range"};
    if (!previous_ms) return std::nullopt;
    if (ms == *previous_ms) return BarTimeBreak{"duplicate-timestamp"};
    if (ms < *previous_ms) return BarTimeBreak{"unsorted-timestamps"};
    const std::int64_t events = funding_times_between(*previous_ms, ms, funding_interval_ms);
    if (events > std::numeric_limits<std::int32_t>::max()) return BarTimeBreak{"too-many-funding-times", events};
    return std::nullopt;
}

std::optional<std::string> symbol_name_break(std::string_view symbol) {
    if (symbol.empty() || csv_trim(symbol).size() != symbol.size()) {
        return "symbol " + in_quotes(symbol) + " is empty or has surrounding spaces";
    }
    for (const char c : symbol) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            return "symbol " + in_quotes(symbol) + " contains a control character";
        }
    }
    return std::nullopt;
}

}  // namespace btforge
