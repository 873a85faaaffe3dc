#include "host/parity/parity_market.h"

#include <stdlib.h>

#include <cerrno>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

#include "host/data/finer_bars.h"
#include "host/data/mark_prices.h"
#include "host/data/market_builder.h"
#include "host/data/synthetic_market.h"

namespace btforge::parity {

namespace {

constexpr double kJump = 0.25;
// A jump's direction keeps the cumulative level within these factors of the
// synthetic one, so prices stay far from zero and from overflow.
constexpr double kMinLevel = 0.25;
constexpr double kMaxLevel = 4.0;

double on_tick(double price, double tick) { return std::max(tick, std::round(price / tick) * tick); }

void make_consistent(Bar& bar) {
    bar.high = std::max({bar.high, bar.open, bar.close});
    bar.low = std::min({bar.low, bar.open, bar.close});
}

std::vector<Bar> own_bars(const Market& market, int symbol) {
    std::vector<Bar> bars;
    bars.reserve(market.own_bars[static_cast<std::size_t>(symbol)].size());
    for (int t : market.own_bars[static_cast<std::size_t>(symbol)]) {
        std::size_t i = market.index(symbol, t);
        bars.push_back(Bar{market.timestamp_ms[static_cast<std::size_t>(t)], market.open[i], market.high[i],
                           market.low[i], market.close[i], market.volume[i], market.funding_rate[i]});
    }
    return bars;
}

class Injector {
public:
    Injector(std::uint64_t seed, double tick) : rng_(seed), tick_(tick) {}

    // Level shifts: every bar from `at` on moves by the same factor. Half of
    // them open the bar already shifted (a gap), the others move within it.
    int jumps(std::vector<Bar>& bars) {
        int n = std::max(2, static_cast<int>(bars.size() / 2500));
        std::vector<std::size_t> at(static_cast<std::size_t>(n));
        for (std::size_t& k : at) k = pick(1, bars.size());
        std::sort(at.begin(), at.end());
        double level = 1.0;
        for (std::size_t k : at) {
            bool up = level * (1.0 + kJump) > kMaxLevel ? false
                      : level * (1.0 - kJump) < kMinLevel ? true
                                                          : coin();
            double factor = up ? 1.0 + kJump : 1.0 - kJump;
            level *= factor;
            bool gap = coin();
            for (std::size_t j = k; j < bars.size(); ++j) {
                Bar& b = bars[j];
                if (j != k || gap) b.open = on_tick(b.open * factor, tick_);
                b.high = on_tick(b.high * factor, tick_);
                b.low = on_tick(b.low * factor, tick_);
                b.close = on_tick(b.close * factor, tick_);
                make_consistent(b);
            }
        }
        return n;
    }

    // One-bar wicks that reach 25% past the close and come back.
    int spikes(std::vector<Bar>& bars) {
        int n = std::max(2, static_cast<int>(bars.size() / 2000));
        for (int i = 0; i < n; ++i) {
            Bar& b = bars[pick(1, bars.size())];
            if (coin()) {
                b.high = std::max(b.high, on_tick(b.close * (1.0 + kJump), tick_));
            } else {
                b.low = std::min(b.low, on_tick(b.close * (1.0 - kJump), tick_));
            }
            make_consistent(b);
        }
        return n;
    }

    int flat_stretches(std::vector<Bar>& bars) {
        int n = std::max(1, static_cast<int>(bars.size() / 8000));
        for (int i = 0; i < n; ++i) {
            std::size_t begin = pick(1, bars.size());
            std::size_t end = std::min(bars.size(), begin + pick(50, 401));
            double price = bars[begin - 1].close;
            for (std::size_t j = begin; j < end; ++j) {
                Bar& b = bars[j];
                b.open = b.high = b.low = b.close = price;
                b.volume = 0.0;
            }
        }
        return n;
    }

    // Deletes runs of 1..300 bars; the first two bars always stay.
    int remove_bars(std::vector<Bar>& bars) {
        int n = std::max(1, static_cast<int>(bars.size() / 6000));
        int removed = 0;
        for (int i = 0; i < n && bars.size() > 400; ++i) {
            std::size_t begin = pick(2, bars.size());
            std::size_t end = std::min(bars.size(), begin + pick(1, 301));
            removed += static_cast<int>(end - begin);
            bars.erase(bars.begin() + static_cast<std::ptrdiff_t>(begin), bars.begin() + static_cast<std::ptrdiff_t>(end));
        }
        return removed;
    }

private:
    // Uniform in [lo, hi); integer draws only, which the standard fixes.
    std::size_t pick(std::size_t lo, std::size_t hi) { return lo + static_cast<std::size_t>(rng_() % (hi - lo)); }
    bool coin() { return (rng_() & 1) != 0; }

    std::mt19937_64 rng_;
    double tick_;
};

}  // namespace

ParityMarket make_parity_market(const ParityMarketOptions& options) {
    SyntheticMarketOptions synthetic;
    synthetic.seed = options.seed;
    synthetic.n_symbols = options.n_symbols;
    synthetic.n_bars = options.n_bars;
    Market base = make_synthetic_market(synthetic);

    ParityMarket result;
    std::vector<SymbolBars> symbols;
    for (int s = 0; s < base.n_symbols(); ++s) {
        const Instrument& instrument = base.instruments[static_cast<std::size_t>(s)];
        SymbolBars bars{base.symbols[static_cast<std::size_t>(s)], instrument, own_bars(base, s)};
        // Each symbol its own stream, so a symbol's edits do not depend on
        // how many symbols there are (as in the synthetic market).
        Injector injector(options.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(s) + 1,
                          instrument.price_tick);
        if (bars.bars.size() > 400) {
            result.injected.jumps += injector.jumps(bars.bars);
            result.injected.spikes += injector.spikes(bars.bars);
            result.injected.flat_stretches += injector.flat_stretches(bars.bars);
            result.injected.removed_bars += injector.remove_bars(bars.bars);
        }
        symbols.push_back(std::move(bars));
    }
    result.market = build_market(std::move(symbols), synthetic.funding_interval_ms);
    std::ostringstream description;
    description << "parity market (synthetic seed " << options.seed << ", " << result.market.n_symbols()
                << " symbols x " << result.market.n_bars() << " bars; injected " << result.injected.jumps
                << " jumps, " << result.injected.spikes << " spikes, " << result.injected.flat_stretches
                << " flat stretches, " << result.injected.removed_bars << " removed bars)";
    if (options.finer_per_bar > 0) {
        result.finer = make_synthetic_finer_bars(result.market, options.finer_per_bar, synthetic.bar_ms, options.seed, 25);
        const FinerBarsUse use = attach_finer_bars(result.market, result.finer, "the magnified bars");
        description << "; " << describe_finer_bars(use, "the magnified bars");
    }
    if (options.mark) {
        if (options.finer_per_bar > 0) throw std::invalid_argument("a parity market has finer bars or a mark price");
        result.mark = make_synthetic_mark_bars(result.market, options.seed, 25);
        const MarkPricesUse use = attach_mark_prices(result.market, result.mark, "the synthetic mark");
        description << "; " << describe_mark_prices(&use, "the synthetic mark");
    }
    result.description = description.str();
    return result;
}

std::string mark_market_file(const std::string& market_file) {
    return std::filesystem::path(market_file).replace_extension().string() + "-mark.csv";
}

std::string finer_market_file(const std::string& market_file) {
    return std::filesystem::path(market_file).replace_extension().string() + "-finer.csv";
}

std::pair<std::string, std::string> failing_market_files(const std::string& report, std::uint64_t seed,
                                                         const std::filesystem::path& temp_root) {
    std::filesystem::path stem;
    if (!report.empty()) {
        stem = std::filesystem::path(report).replace_extension();
    } else {
        std::string pattern = (temp_root / "btforge-parity-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw std::system_error(errno, std::generic_category(), "cannot create a folder under " +
                                                                        temp_root.string() + " for the failing market");
        }
        stem = std::filesystem::path(pattern) / "btforge-parity";
    }
    std::string prefix = stem.string() + "-seed" + std::to_string(seed);
    return {prefix + "-market.csv", prefix + "-instruments.json"};
}

}  // namespace btforge::parity
