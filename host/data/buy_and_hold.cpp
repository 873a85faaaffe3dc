#include "host/data/buy_and_hold.h"

#include <stdexcept>
#include <string>

namespace btforge {

std::vector<double> buy_and_hold_marks(const Market& market, const MarketWindow& window,
                                       const std::vector<int>& mark_bars, double initial_equity) {
    for (std::size_t i = 0; i < mark_bars.size(); ++i) {
        if (mark_bars[i] < 0 || mark_bars[i] >= window.n_bars || (i > 0 && mark_bars[i] <= mark_bars[i - 1])) {
            throw std::invalid_argument("buy_and_hold_marks: mark " + std::to_string(i) + " at bar " +
                                        std::to_string(mark_bars[i]) + " of a window of " +
                                        std::to_string(window.n_bars) + " bars, not after the one before");
        }
    }
    const int parts = static_cast<int>(mark_bars.size());
    const int end = window.first_bar + window.n_bars;
    // Each symbol's first tradable bar in the window, or -1.
    std::vector<int> first(static_cast<std::size_t>(market.n_symbols()), -1);
    int holding = 0;
    for (int s = 0; s < market.n_symbols(); ++s) {
        for (int bar = window.first_bar; bar < end; ++bar) {
            if (market.tradable[market.index(s, bar)] != 0) {
                first[static_cast<std::size_t>(s)] = bar;
                ++holding;
                break;
            }
        }
    }
    std::vector<double> marks;
    marks.reserve(static_cast<std::size_t>(parts));
    const double share = holding > 0 ? initial_equity / holding : 0.0;
    std::vector<double> last_close(static_cast<std::size_t>(market.n_symbols()), 0.0);
    int next_bar = window.first_bar;
    for (int i = 0; i < parts; ++i) {
        const int mark_bar = window.first_bar + mark_bars[static_cast<std::size_t>(i)];
        for (; next_bar <= mark_bar; ++next_bar) {
            for (int s = 0; s < market.n_symbols(); ++s) {
                if (market.tradable[market.index(s, next_bar)] != 0) {
                    last_close[static_cast<std::size_t>(s)] = market.close[market.index(s, next_bar)];
                }
            }
        }
        if (holding == 0) {
            marks.push_back(initial_equity);
            continue;
        }
        double equity = 0.0;
        for (int s = 0; s < market.n_symbols(); ++s) {
            const int bought = first[static_cast<std::size_t>(s)];
            if (bought < 0) continue;
            const double cost = market.open[market.index(s, bought)];
            equity += bought <= mark_bar ? share * (last_close[static_cast<std::size_t>(s)] / cost) : share;
        }
        marks.push_back(equity);
    }
    return marks;
}

}  // namespace btforge
