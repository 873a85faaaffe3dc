#include "host/parity/parity_grid.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace btforge::parity {

namespace {

class ValueDrawer {
public:
    explicit ValueDrawer(std::uint64_t seed) : rng_(seed) {}

    // Adds one value not yet in `values`; false when none could be found
    // (an int range smaller than the wish, a bool).
    bool add(const ParameterSpec& p, std::vector<double>& values) {
        for (int attempt = 0; attempt < 64; ++attempt) {
            double v = draw(p);
            if (std::find(values.begin(), values.end(), v) == values.end()) {
                values.push_back(v);
                return true;
            }
        }
        return false;
    }

private:
    double uniform(double lo, double hi) {
        // 53 random bits: the standard fixes mt19937_64's output, not
        // uniform_real_distribution's, so this keeps grids identical across
        // standard libraries.
        double u = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
        return lo + (hi - lo) * u;
    }

    double draw(const ParameterSpec& p) {
        if (p.type == ParameterType::Bool) return static_cast<double>(rng_() & 1);
        double v;
        if (rng_() % 4 != 0) {
            // Near the default: a factor of 0.5..2 (or a tenth of the range
            // above the minimum when the default is 0).
            v = p.default_value != 0.0 ? p.default_value * uniform(0.5, 2.0)
                                       : uniform(p.min, p.min + (p.max - p.min) / 10.0);
        } else {
            v = uniform(p.min, p.max);
        }
        v = std::clamp(v, p.min, p.max);
        if (p.type == ParameterType::Int) return std::clamp(std::round(v), std::ceil(p.min), std::floor(p.max));
        // Doubles with 6 significant decimals: replay commands stay short.
        double scale = std::pow(10.0, 5 - std::floor(std::log10(std::max(std::fabs(v), 1e-300))));
        double rounded = std::round(v * scale) / scale;
        return std::clamp(rounded, p.min, p.max);
    }

    std::mt19937_64 rng_;
};

// The product of the list sizes, saturating at `cap`.
std::uint64_t space_size(const std::vector<std::vector<double>>& lists, std::uint64_t cap) {
    std::uint64_t size = 1;
    for (const auto& values : lists) {
        if (size > cap / values.size()) return cap;
        size *= values.size();
    }
    return std::min(size, cap);
}

}  // namespace

Grid make_parity_grid(const StrategySpec& spec, std::uint64_t seed, std::uint64_t combinations) {
    ValueDrawer drawer(seed ^ 0xA5A5F00DC0FFEE11ULL);
    std::size_t n_series = 0;
    for (const ParameterSpec& p : spec.parameters) n_series += p.series ? 1 : 0;
    const std::size_t series_values = n_series <= 2 ? 4 : n_series <= 4 ? 3 : 2;

    std::vector<std::vector<double>> lists(spec.parameters.size());
    for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
        const ParameterSpec& p = spec.parameters[i];
        lists[i].push_back(p.default_value);
        std::size_t wanted = p.type == ParameterType::Bool ? 2 : p.series ? series_values : 3;
        while (lists[i].size() < wanted && drawer.add(p, lists[i])) {
        }
    }
    // Grow the non-series lists, one value each in turn, until the space is
    // large enough to sample from.
    const std::uint64_t target = combinations > UINT64_MAX / 4 ? UINT64_MAX : combinations * 4;
    bool grew = true;
    while (space_size(lists, target) < target && grew) {
        grew = false;
        for (std::size_t i = 0; i < spec.parameters.size() && space_size(lists, target) < target; ++i) {
            const ParameterSpec& p = spec.parameters[i];
            if (!p.series && p.type != ParameterType::Bool && drawer.add(p, lists[i])) grew = true;
        }
    }

    // A spec with very many parameters could exceed the 2^63 combinations a
    // CombinationSpace indexes: drop drawn values (never the default, which
    // sorts anywhere but was pushed first) from the longest lists.
    constexpr std::uint64_t kMaxSpace = std::uint64_t{1} << 62;
    while (space_size(lists, UINT64_MAX) > kMaxSpace) {
        auto longest = std::max_element(lists.begin(), lists.end(),
                                        [](const auto& a, const auto& b) { return a.size() < b.size(); });
        longest->pop_back();
    }

    Grid grid;
    grid.strategy = spec.name;
    grid.origin = "<parity grid of " + spec.name + ", seed " + std::to_string(seed) + ">";
    for (std::size_t i = 0; i < lists.size(); ++i) {
        std::sort(lists[i].begin(), lists[i].end());
        grid.axes.push_back(GridAxis{i, lists[i], "", std::nullopt});
    }
    std::uint64_t full = space_size(lists, UINT64_MAX);
    grid.random = RandomSampling{std::min(combinations, full), seed};
    return grid;
}

}  // namespace btforge::parity
