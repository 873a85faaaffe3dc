#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "host/data/market.h"

namespace btforge {

// The bars a run evaluates: [first_bar, first_bar + n_bars) of a market
// (Note [Market windows] in reference/market/market_view.h). The bars before
// first_bar are the indicators' warm-up.
struct MarketWindow {
    int first_bar = 0;
    int n_bars = 0;
    bool operator==(const MarketWindow&) const = default;
};

MarketWindow whole_market(const Market& market);

// A window that selects no bar, or bounds that cannot be a window (from >= to).
class WindowError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The bars with from_ms <= timestamp < to_ms (either bound may be absent: the
// market's first or last bar). Throws WindowError naming the market's span
// when no bar is inside.
MarketWindow select_window(const Market& market, std::optional<std::int64_t> from_ms,
                           std::optional<std::int64_t> to_ms);

// `full` narrowed to `window`: every per-bar pointer moves to the window's
// first bar, n_bars becomes the window's, bar_stride stays the row length.
// A template because the host view and the generated device view
// (generated/btforge_layout.h) have the same fields and both are windowed
// the same way: one rule. Throws std::out_of_range for a window outside
// the view.
template <class View>
View window_view(const View& full, const MarketWindow& window) {
    if (window.first_bar < 0 || window.n_bars < 0 || window.first_bar > full.n_bars - window.n_bars) {
        throw std::out_of_range("market window [" + std::to_string(window.first_bar) + ", +" +
                                std::to_string(window.n_bars) + ") outside the market's " +
                                std::to_string(full.n_bars) + " bars");
    }
    View v = full;
    const int first = window.first_bar;
    v.n_bars = window.n_bars;
    v.timestamp_ms = full.timestamp_ms + first;
    v.open = full.open + first;
    v.high = full.high + first;
    v.low = full.low + first;
    v.close = full.close + first;
    v.volume = full.volume + first;
    v.funding_rate = full.funding_rate + first;
    v.funding_events = full.funding_events + first;
    v.tradable = full.tradable + first;
    if (full.fine_per_bar > 0) {  // Note [Finer bars]: fine_per_bar of them per cell
        v.fine_path = full.fine_path + first;
        const std::ptrdiff_t fine_first = static_cast<std::ptrdiff_t>(first) * full.fine_per_bar;
        v.fine_open = full.fine_open + fine_first;
        v.fine_high = full.fine_high + fine_first;
        v.fine_low = full.fine_low + fine_first;
    }
    if (full.mark_open != nullptr) {  // Note [Mark price]: one mark bar per cell
        v.mark_open = full.mark_open + first;
        v.mark_high = full.mark_high + first;
        v.mark_low = full.mark_low + first;
    }
    return v;
}

// "2024-01-01T00:00:00.000Z .. 2024-06-30T23:00:00.000Z (bars 4380..8759 of
// 17520: 4380 bars; 4380 warm-up bars before it)", for run headers.
std::string describe_window(const Market& market, const MarketWindow& window);

}  // namespace btforge
