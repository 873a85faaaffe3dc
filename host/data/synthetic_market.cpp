#include "host/data/synthetic_market.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace btforge {

namespace {

struct Profile {
    double price;          // starting and anchor level
    double hourly_vol;     // typical per-hour return volatility
    double hourly_notional;  // typical traded value per hour, in quote currency
    Instrument instrument;
};

// Levels far apart, so per-symbol qty_step/min_qty/price_tick matter.
// Symbol s follows profile s % 16 with a seed of its own: the first 16
// symbols are those of every market made before universes grew past 16, and
// a larger universe repeats the levels along other paths.
constexpr std::array<Profile, 16> kProfiles{{
    {30000.0, 0.006, 5.0e7, {0.001, 0.001, 0.1}},
    {2000.0, 0.008, 3.0e7, {0.01, 0.01, 0.01}},
    {150.0, 0.011, 1.0e7, {0.1, 0.1, 0.01}},
    {0.5, 0.013, 5.0e6, {1.0, 1.0, 0.0001}},
    {25.0, 0.012, 4.0e6, {0.1, 0.1, 0.001}},
    {600.0, 0.009, 6.0e6, {0.01, 0.01, 0.01}},
    {6.0, 0.014, 3.0e6, {1.0, 1.0, 0.0001}},
    {0.08, 0.016, 2.0e6, {10.0, 10.0, 0.00001}},
    {80.0, 0.010, 3.0e6, {0.1, 0.1, 0.001}},
    {12000.0, 0.007, 8.0e6, {0.001, 0.001, 0.1}},
    {1.2, 0.012, 2.0e6, {1.0, 1.0, 0.0001}},
    {350.0, 0.010, 4.0e6, {0.01, 0.01, 0.01}},
    {0.015, 0.018, 1.0e6, {100.0, 100.0, 0.000001}},
    {45.0, 0.011, 2.0e6, {0.1, 0.1, 0.001}},
    {3.5, 0.013, 1.5e6, {1.0, 1.0, 0.0001}},
    {9000.0, 0.008, 5.0e6, {0.001, 0.001, 0.1}},
}};

// Probabilities per bar and stretch lengths of the rare events.
constexpr double kGapProbability = 0.002;
constexpr double kFlatProbability = 0.001;
constexpr double kMissingProbability = 0.0015;
constexpr int kMaxFlatBars = 12;
constexpr int kMaxMissingBars = 36;
// GARCH(1,1) weights; alpha + beta < 1 keeps the variance mean-reverting to
// the profile's level while letting shocks cluster.
constexpr double kGarchAlpha = 0.10;
constexpr double kGarchBeta = 0.85;

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

class Random {
public:
    explicit Random(std::uint64_t seed) : engine_(seed) {}

    // Uniform in [0, 1) from the top 53 bits: exact, no rounding up to 1.
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

    // Irwin-Hall: the sum of 12 uniforms minus 6 has mean 0 and variance 1.
    // Its tails stop at ±6, which suits prices (jumps come from the gap
    // process), and it needs no log or cos, whose last bit varies by libm.
    double normal() {
        double sum = 0.0;
        for (int i = 0; i < 12; ++i) sum += uniform();
        return sum - 6.0;
    }

    int between(int lo, int hi) {  // inclusive
        return lo + static_cast<int>(uniform() * static_cast<double>(hi - lo + 1));
    }

private:
    std::mt19937_64 engine_;
};

enum class Regime { TrendUp, TrendDown, Range };

// Snaps to a multiple of `step`. For decimal steps (0.1, 0.0001) it divides
// by the integer 1/step, which lands on the double nearest the decimal
// (29745.9, not 29745.900000000001), so written CSVs read like real ones.
double to_grid(double x, double step) {
    const double n = std::round(x / step);
    const double per_unit = std::round(1.0 / step);
    if (step < 1.0 && per_unit * step == 1.0) return n / per_unit;
    return n * step;
}

class SymbolSimulator {
public:
    SymbolSimulator(const Profile& profile, std::uint64_t seed, std::int64_t bar_ms)
        : profile_(profile), random_(seed) {
        bar_vol_ = profile.hourly_vol * std::sqrt(static_cast<double>(bar_ms) / 3'600'000.0);
        bar_notional_ = profile.hourly_notional * (static_cast<double>(bar_ms) / 3'600'000.0);
        price_ = profile.price;
        variance_ = bar_vol_ * bar_vol_;
        funding_ = 0.0001;
        floor_price_ = 200.0 * profile.instrument.price_tick;
    }

    // Advances one aligned timestamp; true when the symbol has a bar there.
    bool step(bool listed, Bar& bar) {
        if (regime_left_ == 0) choose_regime();
        --regime_left_;
        const double mean = drift();
        evolve_funding();

        if (listed && emitted_ && missing_left_ == 0 && flat_left_ == 0 &&
            random_.uniform() < kMissingProbability) {
            missing_left_ = random_.between(1, kMaxMissingBars);
        }
        if (missing_left_ > 0) {
            // The market moves on while the symbol is absent, so it comes
            // back with a gap.
            --missing_left_;
            advance(mean);
            return false;
        }
        if (!listed) {
            advance(mean);
            return false;
        }

        if (emitted_ && flat_left_ == 0 && random_.uniform() < kFlatProbability) {
            flat_left_ = random_.between(3, kMaxFlatBars);
        }
        if (flat_left_ > 0) {
            --flat_left_;
            bar.open = bar.high = bar.low = bar.close = last_close_;
            bar.volume = 0.0;
            bar.funding_rate = rounded_funding();
            return true;
        }

        const Instrument& inst = profile_.instrument;
        double open = price_;
        if (random_.uniform() < kGapProbability) {
            const double size = (3.0 + 5.0 * random_.uniform()) * bar_vol_;
            open = price_ * (random_.uniform() < 0.5 ? 1.0 - size : 1.0 + size);
            open = std::max(open, floor_price_);
        }
        const double sigma = std::sqrt(variance_);
        const double shock = sigma * random_.normal();
        const double ret = std::clamp(mean + shock, -0.3, 0.3);
        const double close = std::max(open * (1.0 + ret), floor_price_);
        const double wick_up = std::min(std::fabs(random_.normal()) * sigma * 0.6, 0.5);
        const double wick_down = std::min(std::fabs(random_.normal()) * sigma * 0.6, 0.5);
        update_variance(shock);
        price_ = close;

        bar.open = to_grid(open, inst.price_tick);
        bar.close = to_grid(close, inst.price_tick);
        bar.high = std::max({to_grid(std::max(open, close) * (1.0 + wick_up), inst.price_tick), bar.open, bar.close});
        bar.low = std::min({to_grid(std::min(open, close) * (1.0 - wick_down), inst.price_tick), bar.open, bar.close});
        bar.low = std::max(bar.low, inst.price_tick);
        const double activity = (0.5 + std::fabs(random_.normal())) * (sigma / bar_vol_);
        bar.volume = std::max(to_grid(bar_notional_ / profile_.price * activity, inst.qty_step), inst.qty_step);
        bar.funding_rate = rounded_funding();
        last_close_ = bar.close;
        emitted_ = true;
        return true;
    }

private:
    void choose_regime() {
        // Leaning against the distance from the anchor keeps two years of
        // trends within a plausible band around the profile's level.
        const double tilt = std::clamp((price_ / profile_.price - 1.0) * 0.25, -0.2, 0.2);
        const double u = random_.uniform();
        if (u < 0.3 - tilt) {
            regime_ = Regime::TrendUp;
        } else if (u < 0.6) {
            regime_ = Regime::TrendDown;
        } else {
            regime_ = Regime::Range;
            center_ = price_;
        }
        trend_ = bar_vol_ * (0.02 + 0.08 * random_.uniform());
        regime_left_ = random_.between(48, 448);
    }

    double drift() const {
        switch (regime_) {
            case Regime::TrendUp: return trend_;
            case Regime::TrendDown: return -trend_;
            case Regime::Range: return 0.05 * (center_ - price_) / price_;
        }
        return 0.0;
    }

    void update_variance(double shock) {
        const double base = bar_vol_ * bar_vol_;
        variance_ = base * (1.0 - kGarchAlpha - kGarchBeta) + kGarchAlpha * shock * shock + kGarchBeta * variance_;
        variance_ = std::min(variance_, 36.0 * base);
    }

    // Price moves without a bar (unlisted or missing).
    void advance(double mean) {
        const double shock = std::sqrt(variance_) * random_.normal();
        update_variance(shock);
        price_ = std::max(price_ * (1.0 + std::clamp(mean + shock, -0.3, 0.3)), floor_price_);
    }

    // Crowded longs pay in up trends, shorts in down trends.
    void evolve_funding() {
        const double target = regime_ == Regime::TrendUp ? 0.0004 : regime_ == Regime::TrendDown ? -0.0003 : 0.0001;
        funding_ = 0.97 * funding_ + 0.03 * target + 0.00002 * random_.normal();
    }

    // Exchanges quote funding rates to 1e-8.
    double rounded_funding() const { return std::round(funding_ * 1e8) / 1e8; }

    const Profile& profile_;
    Random random_;
    double bar_vol_ = 0.0;
    double bar_notional_ = 0.0;
    double floor_price_ = 0.0;
    double price_ = 0.0;
    double variance_ = 0.0;
    double funding_ = 0.0;
    double last_close_ = 0.0;
    double center_ = 0.0;
    double trend_ = 0.0;
    Regime regime_ = Regime::Range;
    int regime_left_ = 0;
    int flat_left_ = 0;
    int missing_left_ = 0;
    bool emitted_ = false;
};

void check(const SyntheticMarketOptions& o) {
    if (o.n_symbols < 1 || o.n_symbols > kMaxSymbols) {
        throw std::invalid_argument("synthetic market: n_symbols must be 1.." + std::to_string(kMaxSymbols) +
                                    ", got " + std::to_string(o.n_symbols));
    }
    if (o.n_bars < 1) throw std::invalid_argument("synthetic market: n_bars must be positive");
    if (o.bar_ms < 1) throw std::invalid_argument("synthetic market: bar_ms must be positive");
    const std::int64_t span_limit = std::numeric_limits<std::int64_t>::max() - std::max<std::int64_t>(o.start_ms, 0);
    if (o.bar_ms > span_limit / o.n_bars) throw std::invalid_argument("synthetic market: the time range overflows");
}

// Note [Synthetic finer bars]: bar's, finer_ms apart from its timestamp.
void magnify(const Bar& bar, int per_bar, std::int64_t finer_ms, double tick, int faulty_one_in, std::mt19937_64& rng,
             std::vector<Bar>& out) {
    auto uniform = [&rng]() { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
    auto between = [&](double lo, double hi) {
        return std::clamp(std::max(tick, to_grid(lo + (hi - lo) * uniform(), tick)), lo, hi);
    };
    const std::size_t high_at = static_cast<std::size_t>(rng() % static_cast<std::uint64_t>(per_bar));
    std::size_t low_at = static_cast<std::size_t>(rng() % static_cast<std::uint64_t>(per_bar - 1));
    if (low_at >= high_at) low_at += 1;
    const std::size_t first = out.size();
    double previous_close = bar.open;
    for (int k = 0; k < per_bar; ++k) {
        Bar f{bar.timestamp_ms + k * finer_ms, 0.0, 0.0, 0.0, 0.0, bar.volume / per_bar, 0.0};
        f.open = k == 0 ? bar.open : (rng() % 8 == 0 ? between(bar.low, bar.high) : previous_close);
        f.close = k == per_bar - 1 ? bar.close : between(bar.low, bar.high);
        f.high = std::max(f.open, f.close);
        f.low = std::min(f.open, f.close);
        f.high = between(f.high, f.high + (bar.high - f.high) * 0.5);
        f.low = between(f.low - (f.low - bar.low) * 0.5, f.low);
        if (static_cast<std::size_t>(k) == high_at) f.high = bar.high;
        if (static_cast<std::size_t>(k) == low_at) f.low = bar.low;
        previous_close = f.close;
        out.push_back(f);
    }
    if (faulty_one_in <= 0) return;
    const std::uint64_t fault = rng() % static_cast<std::uint64_t>(faulty_one_in);
    if (fault == 0) {
        out.erase(out.begin() + static_cast<std::ptrdiff_t>(first + (rng() % static_cast<std::uint64_t>(per_bar))));
    } else if (fault == 1 && bar.high > bar.low) {
        for (std::size_t k = first; k < out.size(); ++k) {
            if (out[k].high == bar.high) out[k].high = std::max({out[k].open, out[k].close, bar.low});
        }
    }
}

}  // namespace

Market make_synthetic_market(const SyntheticMarketOptions& options) {
    check(options);
    std::vector<SymbolBars> symbols;
    for (int s = 0; s < options.n_symbols; ++s) {
        const Profile& profile = kProfiles[static_cast<std::size_t>(s) % kProfiles.size()];
        const std::uint64_t seed = splitmix64(options.seed ^ splitmix64(static_cast<std::uint64_t>(s) + 1));
        SymbolSimulator simulator(profile, seed, options.bar_ms);
        // Every fourth symbol is listed late, so "NaN before the first bar"
        // is part of the default market too.
        const int listing_bar = s % 4 == 3 ? options.n_bars / 50 : 0;
        SymbolBars out;
        out.symbol = "SYN" + std::to_string(s + 1) + "USDT";
        out.instrument = profile.instrument;
        out.bars.reserve(static_cast<std::size_t>(options.n_bars));
        for (int t = 0; t < options.n_bars; ++t) {
            Bar bar{};
            bar.timestamp_ms = options.start_ms + static_cast<std::int64_t>(t) * options.bar_ms;
            if (simulator.step(t >= listing_bar, bar)) out.bars.push_back(bar);
        }
        symbols.push_back(std::move(out));
    }
    return build_market(std::move(symbols), options.funding_interval_ms);
}

Market make_synthetic_finer_bars(const Market& market, int per_bar, std::int64_t bar_ms, std::uint64_t seed,
                                 int faulty_one_in) {
    if (!finer_bars_fit(per_bar, bar_ms)) {
        throw std::invalid_argument("finer bars per bar must be 2 or more and divide the market's " +
                                    std::to_string(bar_ms) + " ms bars");
    }
    std::vector<SymbolBars> finer;
    for (int s = 0; s < market.n_symbols(); ++s) {
        const Instrument& instrument = market.instruments[static_cast<std::size_t>(s)];
        std::mt19937_64 rng(seed * 0xD1B54A32D192ED03ULL + static_cast<std::uint64_t>(s) + 1);
        SymbolBars bars{market.symbols[static_cast<std::size_t>(s)], instrument, {}};
        for (int t : market.own_bars[static_cast<std::size_t>(s)]) {
            const std::size_t i = market.index(s, t);
            const Bar bar{market.timestamp_ms[static_cast<std::size_t>(t)], market.open[i], market.high[i],
                          market.low[i], market.close[i], market.volume[i], 0.0};
            magnify(bar, per_bar, bar_ms / per_bar, instrument.price_tick, faulty_one_in, rng, bars.bars);
        }
        finer.push_back(std::move(bars));
    }
    return build_market(std::move(finer));
}

Market make_synthetic_mark_bars(const Market& market, std::uint64_t seed, int missing_one_in) {
    std::vector<SymbolBars> marks;
    for (int s = 0; s < market.n_symbols(); ++s) {
        const Instrument& instrument = market.instruments[static_cast<std::size_t>(s)];
        const double tick = instrument.price_tick;
        Random rng(splitmix64(seed * 0xA24BAED4963EE407ULL + static_cast<std::uint64_t>(s) + 1));
        SymbolBars bars{market.symbols[static_cast<std::size_t>(s)], instrument, {}};
        double basis = 0.0;
        for (int t : market.own_bars[static_cast<std::size_t>(s)]) {
            basis = 0.9 * basis + 0.0003 * rng.normal();
            const bool missing = missing_one_in > 0 && rng.between(1, missing_one_in) == 1;
            const double up = 0.001 * rng.uniform();
            const double down = 0.001 * rng.uniform();
            if (missing) continue;
            const std::size_t i = market.index(s, t);
            const double f = 1.0 + basis;
            Bar bar{market.timestamp_ms[static_cast<std::size_t>(t)], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
            bar.open = std::max(tick, to_grid(market.open[i] * f, tick));
            bar.close = std::max(tick, to_grid(market.close[i] * f, tick));
            bar.high = std::max({to_grid(market.high[i] * f * (1.0 + up), tick), bar.open, bar.close});
            bar.low = std::max(tick, std::min({to_grid(market.low[i] * f * (1.0 - down), tick), bar.open, bar.close}));
            bars.bars.push_back(bar);
        }
        marks.push_back(std::move(bars));
    }
    return build_market(std::move(marks));
}

}  // namespace btforge
