#include "host/report/replay_statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "host/io/number_format.h"

namespace btforge {

ReplayStatistics replay_statistics(std::span<const double> equity, std::span<const std::int64_t> time_ms,
                                   double initial_equity, double bars_per_year,
                                   std::span<const RoundTrip> round_trips, std::span<const double> benchmark) {
    if (time_ms.size() != equity.size() || benchmark.size() != equity.size()) {
        throw std::invalid_argument("replay_statistics: the equity, its times and the benchmark differ in length");
    }
    ReplayStatistics s;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::size_t n = equity.size();
    if (n == 0 || !(initial_equity > 0.0) || !(bars_per_year > 0.0)) {
        s.cagr = s.volatility = s.buy_and_hold_return = nan;
    } else {
        const double years = static_cast<double>(n) / bars_per_year;
        s.cagr = equity.back() <= 0.0 ? -1.0 : std::pow(equity.back() / initial_equity, 1.0 / years) - 1.0;
        // Per-bar returns, the first over the initial equity, as the Sharpe ratio takes them; two passes, so
        // equal returns have no spread at all.
        const auto bar_return = [&](std::size_t t) {
            const double before = t > 0 ? equity[t - 1] : initial_equity;
            return before != 0.0 ? equity[t] / before - 1.0 : 0.0;
        };
        double sum = 0.0;
        for (std::size_t t = 0; t < n; ++t) sum += bar_return(t);
        const double mean = sum / static_cast<double>(n);
        double squares = 0.0;
        for (std::size_t t = 0; t < n; ++t) squares += (bar_return(t) - mean) * (bar_return(t) - mean);
        s.volatility = std::sqrt(squares / static_cast<double>(n)) * std::sqrt(bars_per_year);
        s.buy_and_hold_return = benchmark.back() / initial_equity - 1.0;
    }
    // The longest run of bars below the running peak. The initial equity is the first peak, "at" the first
    // bar: a window that starts losing is under water from its first bar.
    double peak = initial_equity;
    std::size_t first_under = 0;
    bool under = false;
    const auto end_run = [&](std::size_t last_under, std::size_t back_at_peak) {
        const int bars = static_cast<int>(last_under - first_under + 1);
        if (bars > s.max_drawdown_bars) {
            s.max_drawdown_bars = bars;
            s.max_drawdown_duration_ms = time_ms[back_at_peak] - time_ms[first_under > 0 ? first_under - 1 : 0];
        }
    };
    for (std::size_t t = 0; t < n; ++t) {
        if (equity[t] >= peak) {
            if (under) end_run(t - 1, t);
            under = false;
            peak = equity[t];
        } else if (!under) {
            under = true;
            first_under = t;
        }
    }
    if (under) end_run(n - 1, n - 1);
    if (round_trips.empty()) {
        s.best_trade = s.worst_trade = nan;
    } else {
        s.best_trade = -std::numeric_limits<double>::infinity();
        s.worst_trade = std::numeric_limits<double>::infinity();
        for (const RoundTrip& trip : round_trips) {
            s.best_trade = std::max(s.best_trade, trip.net_pnl);
            s.worst_trade = std::min(s.worst_trade, trip.net_pnl);
        }
    }
    return s;
}

std::string format_replay_statistics(const ReplayStatistics& s) {
    std::ostringstream out;
    out << "statistics of this replay (docs/SPEC.md §7):\n"
        << "  cagr: " << format_double(s.cagr) << '\n'
        << "  volatility: " << format_double(s.volatility) << '\n'
        << "  max_drawdown_bars: " << s.max_drawdown_bars << '\n'
        << "  max_drawdown_duration_ms: " << s.max_drawdown_duration_ms << '\n'
        << "  best_trade: " << format_double(s.best_trade) << '\n'
        << "  worst_trade: " << format_double(s.worst_trade) << '\n'
        << "  buy_and_hold_return: " << format_double(s.buy_and_hold_return) << '\n';
    return out.str();
}

}  // namespace btforge
