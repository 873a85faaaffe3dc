#pragma once

#include <cstdint>

#include "reference/kernel_marker.h"
#include "reference/market/market_view.h"

namespace btforge {

// Note [Equity marks at UTC days]
// A return stream may be kept per calendar day instead of per equal part of
// the window (--returns daily, Note [Equity marks]): part i is then the
// window's i-th UTC day that has a bar, and its mark is the equity after the
// last bar of that day. Bar t ends a day when it is the window's last bar or
// the next bar's timestamp falls on a later UTC day (days counted from the
// Unix epoch by floor division, so timestamps before 1970 count too). A day
// without a bar (a weekend of stock data) is no part: the next day's return
// covers the gap, as a daily close-to-close series does. The kernels and the
// host (the buy-and-hold benchmark, the number of parts) use these two
// functions, so they mark the same bars.

BT_KERNEL inline constexpr std::int64_t kMillisecondsPerDay = 86400000;

BT_KERNEL inline std::int64_t utc_day_of(std::int64_t timestamp_ms) {
    std::int64_t day = timestamp_ms / kMillisecondsPerDay;
    return timestamp_ms % kMillisecondsPerDay < 0 ? day - 1 : day;
}

BT_KERNEL inline int bar_ends_utc_day(const MarketView& m, int t) {
    return t + 1 >= m.n_bars || utc_day_of(m.timestamp_ms[t]) != utc_day_of(m.timestamp_ms[t + 1]);
}

// The UTC days of the view that have a bar: the parts of a daily return stream.
BT_KERNEL inline int utc_days_with_bars(const MarketView& m) {
    int days = 0;
    for (int t = 0; t < m.n_bars; ++t) days += bar_ends_utc_day(m, t);
    return days;
}

}  // namespace btforge
