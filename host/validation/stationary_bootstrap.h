#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace btforge {

// Note [Stationary bootstrap]
// Politis & Romano (1994), "The stationary bootstrap", JASA 89(428): a
// resample of T observations is a run of blocks, each starting at a uniform
// position and continuing on consecutive observations (T-1 wraps to 0), the
// block lengths geometric with mean L. As arch's StationaryBootstrap draws
// it (arch.bootstrap, the oracle of the tests): position 0 is a uniform
// draw; position i >= 1 is a new uniform draw when u_i < p = 1/L, else the
// previous position + 1 (mod T). arch continues a block when u_i > p, so
// the two differ only at u_i == p, which has probability 0 for arch and at
// most 2^-53 here.
// The draws are counter-based, so any resample can be made on its own (a
// thread, a device, a shard) with the same bits: the word at (b, j) is the
// splitmix64 finalizer of seed_key + (b * 2T + j + 1) * 0x9E3779B97F4A7C15,
// seed_key the finalizer of the user's seed; j = 2i gives u_i =
// (word >> 11) * 2^-53 in [0, 1), j = 2i + 1 the new position
// floor(word * T / 2^64) (a bias below T / 2^64 per position). All of it is
// integer arithmetic and one exact conversion, the same on any machine.
// What the statistics need of a resample is how often it took each
// observation (its counts): the mean of a resampled stream is
// Σ_t count[t] * x[t] / T whatever the order of the draws.

struct StationaryBootstrapPlan {
    int observations = 0;      // T >= 1
    double mean_block = 1.0;   // L >= 1
    int resamples = 1000;      // B >= 1
    std::uint64_t seed = 0;
};

// "B" or "B:L", for --spa (L: default_mean_block when absent); nullopt and
// the reason in *error otherwise.
struct BootstrapText {
    int resamples = 1000;
    std::optional<double> mean_block;
};
std::optional<BootstrapText> parse_bootstrap(std::string_view text, std::string* error);

// The mean block length when the user gives none: floor(sqrt(T)), at least
// 1, arch's default for SPA and StepM, so the two tools agree unless told.
double default_mean_block(int observations);

// Why the plan cannot be drawn (T < 1, L < 1 or not finite, B < 1), or empty.
std::string check_bootstrap_plan(const StationaryBootstrapPlan& plan);

// The T positions of resample b, in draw order.
std::vector<int> stationary_bootstrap_positions(const StationaryBootstrapPlan& plan, std::uint64_t resample);

// How often each observation is drawn, per resample: counts[b * T + t].
struct BootstrapCounts {
    int observations = 0;
    int resamples = 0;
    std::vector<std::uint32_t> counts;

    std::span<const std::uint32_t> of(int resample) const {
        return {counts.data() + static_cast<std::size_t>(resample) * static_cast<std::size_t>(observations),
                static_cast<std::size_t>(observations)};
    }
};

BootstrapCounts stationary_bootstrap_counts(const StationaryBootstrapPlan& plan);

// The counts of resamples given as positions (each a list of T positions in
// [0, T)): what the oracle tests hand over when arch drew the positions.
BootstrapCounts bootstrap_counts_of(int observations, const std::vector<std::vector<int>>& positions);

}  // namespace btforge
