#include "host/data/equity_mark_bars.h"

#include <stdexcept>
#include <string>

#include "reference/market/utc_days.h"
#include "reference/metrics/metrics.h"

namespace btforge {

std::vector<int> equity_mark_bars(const Market& market, const MarketWindow& window, int parts, bool daily) {
    if (parts < 1 || parts > window.n_bars) {
        throw std::invalid_argument("equity_mark_bars: " + std::to_string(parts) + " parts of a window of " +
                                    std::to_string(window.n_bars) + " bars");
    }
    std::vector<int> bars;
    bars.reserve(static_cast<std::size_t>(parts));
    if (daily) {
        const MarketView view = window_view(market.view(), window);
        for (int t = 0; t < view.n_bars; ++t) {
            if (bar_ends_utc_day(view, t) != 0) bars.push_back(t);
        }
        if (bars.size() != static_cast<std::size_t>(parts)) {
            throw std::invalid_argument("equity_mark_bars: " + std::to_string(parts) + " daily parts of a window of " +
                                        std::to_string(bars.size()) + " UTC days");
        }
        return bars;
    }
    for (int i = 0; i < parts; ++i) bars.push_back(static_cast<int>(period_first_bar(i + 1, window.n_bars, parts)) - 1);
    return bars;
}

int utc_days_in_window(const Market& market, const MarketWindow& window) {
    return utc_days_with_bars(window_view(market.view(), window));
}

}  // namespace btforge
