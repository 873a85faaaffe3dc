#include "host/data/buy_and_hold.h"

#include <stdexcept>
#include <string>

namespace btforge {

std::vector<double> buy_and_hold_marks(const Market& market, const MarketWindow& window, int parts,
                                       double initial_equity) {
    if (parts < 1 || parts > window.n_bars) {
        throw std::invalid_argument("buy_and_hold_marks: " + std::to_string(parts) + " parts of a window of " +
                                    std::to_string(window.n_bars) + " bars");
    }
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
        const int mark_bar = window.first_bar +
                             static_cast<int>(static_cast<long long>(i + 1) * window.n_bars / parts) - 1;
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
