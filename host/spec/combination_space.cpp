#include "host/spec/combination_space.h"

#include <stdexcept>

#include "host/io/number_format.h"
#include "host/spec/spec_error.h"

namespace btforge {

namespace {

constexpr std::uint64_t kMaxSpaceSize = std::uint64_t{1} << 63;

std::optional<std::uint64_t> checked_product(std::uint64_t a, std::uint64_t b) {
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product) || product > kMaxSpaceSize) return std::nullopt;
    return product;
}

}  // namespace

std::optional<std::uint64_t> combination_space_size(const Grid& grid) {
    std::uint64_t size = 1;
    for (const auto& axis : grid.axes) {
        auto product = checked_product(size, axis.values.size());
        if (!product) return std::nullopt;
        size = *product;
    }
    return size;
}

CombinationSpace::CombinationSpace(const StrategySpec& spec, const Grid& grid) : origin_(grid.origin) {
    if (grid.strategy != spec.name)
        throw SpecError(grid.origin, "/strategy", "expected \"" + spec.name + "\", got \"" + grid.strategy + "\"");
    if (grid.axes.size() != spec.parameters.size())
        throw SpecError(grid.origin, "/parameters",
                        "expected one value list per parameter of " + spec.origin + " (" + std::to_string(spec.parameters.size()) +
                            "), got " + std::to_string(grid.axes.size()));
    for (std::size_t i = 0; i < grid.axes.size(); ++i)
        if (grid.axes[i].parameter != i || grid.axes[i].values.empty())
            throw SpecError(grid.origin, grid.axes[i].json_path, "expected a non-empty value list for " + spec.parameters[i].name);

    for (const bool series : {true, false})
        for (std::size_t i = 0; i < spec.parameters.size(); ++i)
            if (spec.parameters[i].series == series) digits_.push_back(Digit{i, grid.axes[i].values.size(), 0, grid.axes[i].values});

    for (auto digit = digits_.rbegin(); digit != digits_.rend(); ++digit) {
        digit->stride = full_size_;
        auto product = checked_product(full_size_, digit->radix);
        if (!product)
            throw SpecError(grid.origin, "/parameters",
                            "expected a combination space of at most 2^63 combinations, got more (the product of the "
                            "numbers of values overflows)");
        full_size_ = *product;
        if (!spec.parameters[digit->parameter].series) series_block_size_ = full_size_;
    }

    for (const auto& p : spec.parameters) names_.push_back(p.name);

    count_ = full_size_;
    if (grid.random) {
        if (grid.random->count == 0 || grid.random->count > full_size_)
            throw SpecError(grid.origin, "/random/count",
                            "expected at most " + std::to_string(full_size_) + " (the size of the grid's combination space), got " +
                                std::to_string(grid.random->count));
        count_ = grid.random->count;
        permutation_.emplace(full_size_, grid.random->seed);
    }
}

std::uint64_t CombinationSpace::combination_id(std::uint64_t ordinal) const {
    if (ordinal >= count_) throw std::out_of_range("CombinationSpace: ordinal " + std::to_string(ordinal) + " >= count " + std::to_string(count_));
    return permutation_ ? (*permutation_)(ordinal) : ordinal;
}

std::optional<std::uint64_t> CombinationSpace::ordinal_of(std::uint64_t id) const {
    if (id >= full_size_) return std::nullopt;
    const std::uint64_t ordinal = permutation_ ? permutation_->inverse(id) : id;
    if (ordinal >= count_) return std::nullopt;
    return ordinal;
}

void CombinationSpace::decode(std::uint64_t id, std::span<double> values_in_spec_order) const {
    if (id >= full_size_) throw std::out_of_range("CombinationSpace: id " + std::to_string(id) + " >= size " + std::to_string(full_size_));
    if (values_in_spec_order.size() != digits_.size())
        throw std::invalid_argument("CombinationSpace::decode: expected " + std::to_string(digits_.size()) + " values");
    for (auto digit = digits_.rbegin(); digit != digits_.rend(); ++digit) {
        values_in_spec_order[digit->parameter] = digit->values[id % digit->radix];
        id /= digit->radix;
    }
}

std::uint64_t CombinationSpace::encode(std::span<const double> values_in_spec_order) const {
    if (values_in_spec_order.size() != digits_.size())
        throw std::invalid_argument("CombinationSpace::encode: expected " + std::to_string(digits_.size()) + " values");
    std::uint64_t id = 0;
    for (const auto& digit : digits_) {
        const double value = values_in_spec_order[digit.parameter];
        std::size_t index = 0;
        while (index < digit.values.size() && digit.values[index] != value) ++index;
        if (index == digit.values.size()) {
            std::string listed;
            for (std::size_t k = 0; k < digit.values.size() && k < 8; ++k) listed += (k ? ", " : "") + format_double(digit.values[k]);
            if (digit.values.size() > 8) listed += ", ...";
            throw SpecError(origin_, "/parameters/" + names_[digit.parameter],
                            "expected one of the grid's values of " + names_[digit.parameter] + " (" + listed + "), got " +
                                format_double(value));
        }
        id += static_cast<std::uint64_t>(index) * digit.stride;
    }
    return id;
}

}  // namespace btforge
