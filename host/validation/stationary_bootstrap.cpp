#include "host/validation/stationary_bootstrap.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include "host/validation/counter_random.h"

namespace btforge {

namespace {

// Note [Stationary bootstrap]: the word at (resample, j).
struct BootstrapWords {
    std::uint64_t seed_key;
    std::uint64_t observations;

    std::uint64_t at(std::uint64_t resample, std::uint64_t j) const {
        return counter_draw(seed_key, resample * 2 * observations + j);
    }
    double uniform(std::uint64_t resample, std::uint64_t i) const {
        return uniform_of_draw(at(resample, 2 * i));
    }
    int position(std::uint64_t resample, std::uint64_t i) const {
        return static_cast<int>(high_product(at(resample, 2 * i + 1), observations));
    }
};

template <class Number>
std::optional<Number> number_of(std::string_view text) {
    Number value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// Visits the T positions of resample b in draw order.
template <class Visit>
void draw_positions(const StationaryBootstrapPlan& plan, std::uint64_t resample, Visit visit) {
    const BootstrapWords words{splitmix64_finalize(plan.seed), static_cast<std::uint64_t>(plan.observations)};
    const double p = 1.0 / plan.mean_block;
    int position = words.position(resample, 0);
    visit(position);
    for (int i = 1; i < plan.observations; ++i) {
        if (words.uniform(resample, static_cast<std::uint64_t>(i)) < p) {
            position = words.position(resample, static_cast<std::uint64_t>(i));
        } else {
            position = position + 1 == plan.observations ? 0 : position + 1;
        }
        visit(position);
    }
}

void require_drawable(const StationaryBootstrapPlan& plan) {
    const std::string why = check_bootstrap_plan(plan);
    if (!why.empty()) throw std::invalid_argument(why);
}

}  // namespace

std::optional<BootstrapText> parse_bootstrap(std::string_view text, std::string* error) {
    BootstrapText parsed;
    const std::size_t colon = text.find(':');
    const std::optional<int> resamples = number_of<int>(text.substr(0, colon));
    if (!resamples || *resamples < 1) {
        *error = "expected B or B:L (B resamples >= 1, L mean block length >= 1), got '" + std::string(text) + "'";
        return std::nullopt;
    }
    parsed.resamples = *resamples;
    if (colon != std::string_view::npos) {
        const std::optional<double> block = number_of<double>(text.substr(colon + 1));
        if (!block || !std::isfinite(*block) || *block < 1.0) {
            *error = "the mean block length L must be a number >= 1, got '" + std::string(text.substr(colon + 1)) + "'";
            return std::nullopt;
        }
        parsed.mean_block = *block;
    }
    return parsed;
}

double default_mean_block(int observations) {
    const double root = std::floor(std::sqrt(static_cast<double>(observations)));
    return root < 1.0 ? 1.0 : root;
}

std::string check_bootstrap_plan(const StationaryBootstrapPlan& plan) {
    if (plan.observations < 1) return "the bootstrap needs at least one observation, got " + std::to_string(plan.observations);
    if (!std::isfinite(plan.mean_block) || plan.mean_block < 1.0) {
        return "the mean block length must be a number >= 1, got " + std::to_string(plan.mean_block);
    }
    if (plan.resamples < 1) return "the bootstrap needs at least one resample, got " + std::to_string(plan.resamples);
    return {};
}

std::vector<int> stationary_bootstrap_positions(const StationaryBootstrapPlan& plan, std::uint64_t resample) {
    require_drawable(plan);
    std::vector<int> positions;
    positions.reserve(static_cast<std::size_t>(plan.observations));
    draw_positions(plan, resample, [&](int position) { positions.push_back(position); });
    return positions;
}

BootstrapCounts stationary_bootstrap_counts(const StationaryBootstrapPlan& plan) {
    require_drawable(plan);
    BootstrapCounts counts{plan.observations, plan.resamples,
                           std::vector<std::uint32_t>(static_cast<std::size_t>(plan.observations) *
                                                      static_cast<std::size_t>(plan.resamples))};
    for (int b = 0; b < plan.resamples; ++b) {
        std::uint32_t* row = counts.counts.data() + static_cast<std::size_t>(b) * static_cast<std::size_t>(plan.observations);
        draw_positions(plan, static_cast<std::uint64_t>(b), [&](int position) { row[position] += 1; });
    }
    return counts;
}

BootstrapCounts bootstrap_counts_of(int observations, const std::vector<std::vector<int>>& positions) {
    if (observations < 1) throw std::invalid_argument("bootstrap counts need at least one observation");
    BootstrapCounts counts{observations, static_cast<int>(positions.size()),
                           std::vector<std::uint32_t>(static_cast<std::size_t>(observations) * positions.size())};
    for (std::size_t b = 0; b < positions.size(); ++b) {
        if (positions[b].size() != static_cast<std::size_t>(observations)) {
            throw std::invalid_argument("resample " + std::to_string(b) + " has " + std::to_string(positions[b].size()) +
                                        " positions, not " + std::to_string(observations));
        }
        for (int position : positions[b]) {
            if (position < 0 || position >= observations) {
                throw std::invalid_argument("resample " + std::to_string(b) + " draws position " +
                                            std::to_string(position) + " outside [0, " + std::to_string(observations) + ")");
            }
            counts.counts[b * static_cast<std::size_t>(observations) + static_cast<std::size_t>(position)] += 1;
        }
    }
    return counts;
}

}  // namespace btforge
