#include "host/spec/combination_space.h"

#include <algorithm>
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

namespace {

// The controlling parameters of a grid's conditions, each once, increasing.
std::vector<std::size_t> controlling_parameters(const Grid& grid) {
    std::vector<std::size_t> out;
    for (const GridAxis& axis : grid.axes) {
        if (axis.when) out.push_back(axis.when->parameter);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// How many cases the controlling axes make (Note [Run order of a
// conditional grid]), or std::length_error beyond kMaxConditionCases.
std::uint64_t condition_cases(const Grid& grid, const std::vector<std::size_t>& controllers) {
    std::uint64_t cases = 1;
    for (std::size_t p : controllers) {
        cases *= grid.axes[p].values.size();
        if (cases > kMaxConditionCases) {
            throw std::length_error("expected conditions whose controlling parameters have at most " +
                                    std::to_string(kMaxConditionCases) + " combinations of values, got more");
        }
    }
    return cases;
}

bool condition_holds(const AxisCondition& when, double controller_value) {
    return std::find(when.values.begin(), when.values.end(), controller_value) != when.values.end();
}

}  // namespace

std::uint64_t conditional_space_size(const Grid& grid) {
    const std::vector<std::size_t> controllers = controlling_parameters(grid);
    if (controllers.empty()) return combination_space_size(grid).value_or(0);
    const std::uint64_t cases = condition_cases(grid, controllers);
    std::vector<double> value(grid.axes.size());
    std::uint64_t total = 0;
    for (std::uint64_t c = 0; c < cases; ++c) {
        std::uint64_t rest = c;
        for (auto p = controllers.rbegin(); p != controllers.rend(); ++p) {
            value[*p] = grid.axes[*p].values[rest % grid.axes[*p].values.size()];
            rest /= grid.axes[*p].values.size();
        }
        std::uint64_t size = 1;
        for (std::size_t p = 0; p < grid.axes.size(); ++p) {
            const GridAxis& axis = grid.axes[p];
            if (std::binary_search(controllers.begin(), controllers.end(), p)) continue;
            if (axis.when && !condition_holds(*axis.when, value[axis.when->parameter])) continue;
            size *= axis.values.size();  // at most the full size: no overflow
        }
        total += size;
    }
    return total;
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

    // Note [Run order of a conditional grid]
    conditional_size_ = full_size_;
    const std::vector<std::size_t> controlling = controlling_parameters(grid);
    if (!controlling.empty()) {
        std::uint64_t cases = 0;
        try {
            cases = condition_cases(grid, controlling);
        } catch (const std::length_error& e) {
            throw SpecError(grid.origin, "/parameters", e.what());
        }
        std::vector<std::size_t> digit_of(digits_.size());
        for (std::size_t d = 0; d < digits_.size(); ++d) digit_of[digits_[d].parameter] = d;
        condition_.resize(digits_.size());
        for (std::size_t d = 0; d < digits_.size(); ++d) {
            const GridAxis& axis = grid.axes[digits_[d].parameter];
            if (!axis.when) continue;
            DigitCondition c;
            c.controller = digit_of[axis.when->parameter];
            for (double v : digits_[c.controller].values) c.holds.push_back(condition_holds(*axis.when, v));
            condition_[d] = std::move(c);
        }
        for (std::size_t p : controlling) controllers_.push_back(digit_of[p]);
        std::sort(controllers_.begin(), controllers_.end());
        std::vector<std::uint64_t> index(digits_.size(), 0);
        std::uint64_t first = 0;
        for (std::uint64_t c = 0; c < cases; ++c) {
            Case one{first, 1, 0, {}};
            std::uint64_t rest = c;
            for (auto d = controllers_.rbegin(); d != controllers_.rend(); ++d) {
                index[*d] = rest % digits_[*d].radix;
                rest /= digits_[*d].radix;
                one.base_id += index[*d] * digits_[*d].stride;
            }
            for (std::size_t d = 0; d < digits_.size(); ++d) {
                if (std::binary_search(controllers_.begin(), controllers_.end(), d)) continue;
                if (condition_[d] && !condition_[d]->holds[index[condition_[d]->controller]]) continue;
                one.varying.push_back(static_cast<std::uint32_t>(d));
                one.size *= digits_[d].radix;
            }
            first += one.size;
            cases_.push_back(std::move(one));
        }
        conditional_size_ = first;
    }

    count_ = conditional_size_;
    if (grid.random) {
        if (grid.random->count == 0 || grid.random->count > conditional_size_)
            throw SpecError(grid.origin, "/random/count",
                            "expected at most " + std::to_string(conditional_size_) +
                                " (the size of the grid's combination space), got " + std::to_string(grid.random->count));
        count_ = grid.random->count;
        permutation_.emplace(conditional_size_, grid.random->seed);
    }
}

std::uint64_t CombinationSpace::conditional_id(std::uint64_t position) const {
    const auto found = std::upper_bound(cases_.begin(), cases_.end(), position,
                                        [](std::uint64_t p, const Case& c) { return p < c.first_ordinal; });
    const Case& c = *std::prev(found);
    std::uint64_t local = position - c.first_ordinal;
    std::uint64_t id = c.base_id;
    for (auto d = c.varying.rbegin(); d != c.varying.rend(); ++d) {
        id += (local % digits_[*d].radix) * digits_[*d].stride;
        local /= digits_[*d].radix;
    }
    return id;
}

std::optional<std::uint64_t> CombinationSpace::conditional_position(std::uint64_t id) const {
    std::vector<std::uint64_t> index(digits_.size());
    for (std::size_t d = 0; d < digits_.size(); ++d) index[d] = (id / digits_[d].stride) % digits_[d].radix;
    for (std::size_t d = 0; d < digits_.size(); ++d) {
        // An axis whose condition does not hold runs at its first value only.
        if (condition_[d] && !condition_[d]->holds[index[condition_[d]->controller]] && index[d] != 0) {
            return std::nullopt;
        }
    }
    std::uint64_t case_index = 0;
    for (std::size_t d : controllers_) case_index = case_index * digits_[d].radix + index[d];
    const Case& c = cases_[case_index];
    std::uint64_t local = 0;
    for (std::uint32_t d : c.varying) local = local * digits_[d].radix + index[d];
    return c.first_ordinal + local;
}

bool CombinationSpace::applies(std::uint64_t id, std::size_t parameter) const {
    if (cases_.empty()) return true;
    for (std::size_t d = 0; d < digits_.size(); ++d) {
        if (digits_[d].parameter != parameter) continue;
        if (!condition_[d]) return true;
        const Digit& controller = digits_[condition_[d]->controller];
        return condition_[d]->holds[(id / controller.stride) % controller.radix];
    }
    return true;
}

std::uint64_t CombinationSpace::combination_id(std::uint64_t ordinal) const {
    if (ordinal >= count_) throw std::out_of_range("CombinationSpace: ordinal " + std::to_string(ordinal) + " >= count " + std::to_string(count_));
    const std::uint64_t position = permutation_ ? (*permutation_)(ordinal) : ordinal;
    return cases_.empty() ? position : conditional_id(position);
}

std::optional<std::uint64_t> CombinationSpace::ordinal_of(std::uint64_t id) const {
    if (id >= full_size_) return std::nullopt;
    std::optional<std::uint64_t> position = id;
    if (!cases_.empty()) position = conditional_position(id);
    if (!position) return std::nullopt;
    const std::uint64_t ordinal = permutation_ ? permutation_->inverse(*position) : *position;
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
