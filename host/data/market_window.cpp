#include "host/data/market_window.h"

#include <algorithm>

#include "host/data/timestamp_parse.h"

namespace btforge {

MarketWindow whole_market(const Market& market) { return MarketWindow{0, market.n_bars()}; }

MarketWindow select_window(const Market& market, std::optional<std::int64_t> from_ms,
                           std::optional<std::int64_t> to_ms) {
    if (from_ms && to_ms && *from_ms >= *to_ms) {
        throw WindowError("the window's start " + format_timestamp_iso(*from_ms) + " (--from) is not before its end " +
                          format_timestamp_iso(*to_ms) + " (--to, excluded)");
    }
    const std::vector<std::int64_t>& ts = market.timestamp_ms;
    const auto begin = from_ms ? std::lower_bound(ts.begin(), ts.end(), *from_ms) : ts.begin();
    const auto end = to_ms ? std::lower_bound(ts.begin(), ts.end(), *to_ms) : ts.end();
    if (begin >= end) {
        std::string span = ts.empty() ? std::string("no bars")
                                      : "bars from " + format_timestamp_iso(ts.front()) + " to " +
                                            format_timestamp_iso(ts.back());
        throw WindowError("the window [" + (from_ms ? format_timestamp_iso(*from_ms) : std::string("start")) + ", " +
                          (to_ms ? format_timestamp_iso(*to_ms) : std::string("end")) +
                          ") holds no bar of the market (it has " + span + ")");
    }
    return MarketWindow{static_cast<int>(begin - ts.begin()), static_cast<int>(end - begin)};
}

std::string describe_window(const Market& market, const MarketWindow& window) {
    const int last = window.first_bar + window.n_bars - 1;
    return format_timestamp_iso(market.timestamp_ms.at(static_cast<std::size_t>(window.first_bar))) + " .. " +
           format_timestamp_iso(market.timestamp_ms.at(static_cast<std::size_t>(last))) + " (bars " +
           std::to_string(window.first_bar) + ".." + std::to_string(last) + " of " + std::to_string(market.n_bars()) +
           ": " + std::to_string(window.n_bars) + " bars; indicators warmed up on the " +
           std::to_string(window.first_bar) + " bars before it)";
}

}  // namespace btforge
