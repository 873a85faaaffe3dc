#include "host/data/finer_bars.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "host/data/data_error.h"
#include "reference/market/bar_legs.h"

namespace btforge {

std::string length_words(std::int64_t ms) {
    if (ms % 3'600'000 == 0) return std::to_string(ms / 3'600'000) + "-hour";
    if (ms % 60'000 == 0) return std::to_string(ms / 60'000) + "-minute";
    if (ms % 1'000 == 0) return std::to_string(ms / 1'000) + "-second";
    return std::to_string(ms) + "-millisecond";
}

namespace {

std::string gigabytes(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
    return text;
}

}  // namespace

double finer_bars_memory_limit() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return 0.0;
    return 0.5 * static_cast<double>(pages) * static_cast<double>(page_size);
}

FinerBarsUse attach_finer_bars(Market& market, const Market& finer, const std::string& finer_file,
                               double memory_limit_bytes) {
    FinerBarsUse use;
    use.bar_ms = market.shortest_step();
    use.finer_ms = finer.shortest_step();
    if (use.bar_ms == 0 || use.finer_ms == 0) {
        throw DataError(finer_file, 0, 0, "finer-bars-do-not-divide",
                        "finer bars need at least two timestamps in the market and in the finer file, to know the "
                        "length of their bars");
    }
    if (use.bar_ms % use.finer_ms != 0 || use.bar_ms / use.finer_ms < 2) {
        throw DataError(finer_file, 0, 0, "finer-bars-do-not-divide",
                        "its " + length_words(use.finer_ms) + " bars do not divide the market's " +
                            length_words(use.bar_ms) + " bars into two or more");
    }
    const std::int64_t per_bar = use.bar_ms / use.finer_ms;
    const double finer_bars = static_cast<double>(market.open.size()) * static_cast<double>(per_bar);
    const double bytes = finer_bars * 3.0 * sizeof(double) + static_cast<double>(market.open.size());
    const double limit = memory_limit_bytes > 0.0 ? memory_limit_bytes : finer_bars_memory_limit();
    if (per_bar > std::numeric_limits<int>::max() || finer_bars > 2e9 || (limit > 0.0 && bytes > limit)) {
        throw DataError(finer_file, 0, 0, "too-large",
                        std::to_string(per_bar) + " finer bars per bar for " + std::to_string(market.open.size()) +
                            " cells (symbols x bars) take " + gigabytes(bytes) + ", more than btforge gives them (" +
                            (limit > 0.0 ? gigabytes(limit) + ", half this machine's memory, and " : "") +
                            "2e9 finer bars): give fewer symbols or bars, or coarser finer bars");
    }
    use.per_bar = static_cast<int>(per_bar);
    FinerBars& f = market.finer;
    const std::size_t cells = market.open.size();
    f.per_bar = use.per_bar;
    f.path.assign(cells, 0);
    f.open.assign(cells * f.per_bar, 0.0);
    f.high.assign(cells * f.per_bar, 0.0);
    f.low.assign(cells * f.per_bar, 0.0);
    const auto& finer_times = finer.timestamp_ms;
    for (int s = 0; s < market.n_symbols(); ++s) {
        const int fs = finer.symbol_index(market.symbols[s]);
        for (int t = 0; t < market.n_bars(); ++t) {
            const std::size_t i = market.index(s, t);
            if (market.tradable[i] == 0) continue;
            use.bars += 1;
            const std::int64_t start = market.timestamp_ms[t];
            const auto first = std::lower_bound(finer_times.begin(), finer_times.end(), start);
            const std::size_t j = static_cast<std::size_t>(first - finer_times.begin());
            bool there = fs >= 0 && j + f.per_bar <= finer_times.size();
            for (int k = 0; there && k < f.per_bar; ++k) {
                there = finer_times[j + k] == start + k * use.finer_ms && finer.tradable[finer.index(fs, j + k)] != 0;
            }
            if (!there) {
                use.missing += 1;
                continue;
            }
            const std::size_t first_cell = finer.index(fs, static_cast<int>(j));
            double high = finer.high[first_cell];
            double low = finer.low[first_cell];
            for (int k = 1; k < f.per_bar; ++k) {
                high = std::max(high, finer.high[first_cell + k]);
                low = std::min(low, finer.low[first_cell + k]);
            }
            if (finer.open[first_cell] != market.open[i] || high != market.high[i] || low != market.low[i] ||
                finer.close[first_cell + f.per_bar - 1] != market.close[i]) {
                use.disagreeing += 1;
                continue;
            }
            use.with_path += 1;
            f.path[i] = 1;
            for (int k = 0; k < f.per_bar; ++k) {
                f.open[i * f.per_bar + k] = finer.open[first_cell + k];
                f.high[i * f.per_bar + k] = finer.high[first_cell + k];
                f.low[i * f.per_bar + k] = finer.low[first_cell + k];
            }
        }
    }
    return use;
}

std::string describe_finer_bars(const FinerBarsUse& use, const std::string& finer_file) {
    return std::to_string(use.per_bar) + " finer bars per bar (" + length_words(use.finer_ms) + " bars in " +
           length_words(use.bar_ms) + " bars) from " + finer_file + ": " + std::to_string(use.with_path) + " of " +
           std::to_string(use.bars) + " bars have their path; " + std::to_string(use.missing) +
           " lack finer bars, " + std::to_string(use.disagreeing) +
           " disagree with theirs (those are settled by their own prices)";
}

MarketView with_bar_legs(MarketView view, int legs) {
    if (legs == 0) return view;
    if (legs != 1 && legs != -1) throw std::logic_error("with_bar_legs: legs must be 1 or -1");
    if (view.fine_per_bar > 0) throw std::logic_error("with_bar_legs: the market has finer bars of its own");
    view.fine_per_bar = kBarLegs;
    view.fine_legs = legs;
    return view;
}

}  // namespace btforge
