#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "host/spec/grid.h"
#include "host/spec/random_permutation.h"
#include "host/spec/strategy_spec.h"

namespace btforge {

// Note [Mixed radix digit order]
// A combination id is a mixed-radix number whose digits are indices into the
// grid's value lists. The digits are ordered by significance: first the
// parameters with "series": true (in spec order, the first one being the
// MOST significant digit), then the others (in spec order, the last one being
// the least significant). Consecutive ids therefore differ in the strategy's
// own parameters first, and a whole block of series_block_size() consecutive
// ids shares every indicator series: the GPU threads of a warp read the same
// series (broadcasts) and the CPU engine computes each series once per block.
// Nothing is materialized: decode() is one div/mod per digit.

// The size of the grid's full space, or nothing when it exceeds 2^63.
std::optional<std::uint64_t> combination_space_size(const Grid& grid);
// How many of them its conditions keep (Note [Conditional axes]): the full
// size without conditions. Throws std::length_error when the conditions'
// controlling axes make more than kMaxConditionCases cases.
std::uint64_t conditional_space_size(const Grid& grid);
inline constexpr std::uint64_t kMaxConditionCases = std::uint64_t{1} << 16;

// Note [Run order of a conditional grid]
// With conditions (Note [Conditional axes]) the combinations a sweep runs
// are a subset of the product: a conditional axis whose condition does not
// hold takes its first value only. They are numbered case by case: the
// cases are the combinations of the controlling parameters' values, in
// the mixed radix of their digits (the most significant first); inside a
// case, the mixed radix of the digits that vary there, in the order of
// Note [Mixed radix digit order]. So the run order is still series-major
// inside each case. combination_id finds the case of an ordinal by binary
// search over the cases' first ordinals; ordinal_of decodes the id and
// refuses one whose inactive axis is not at its first value.

class CombinationSpace {
public:
    struct Digit {
        std::size_t parameter;          // index into StrategySpec::parameters
        std::uint64_t radix;            // the number of values, >= 1
        std::uint64_t stride;           // the product of the radices of all less significant digits
        std::vector<double> values;     // the grid's values, in the grid's order
    };

    // Throws SpecError when the grid does not fit the spec or its space
    // exceeds 2^63 (parse_grid already rejects both).
    CombinationSpace(const StrategySpec& spec, const Grid& grid);

    std::uint64_t full_size() const noexcept { return full_size_; }
    // How many combinations a sweep runs: the full size, or the random count.
    std::uint64_t count() const noexcept { return count_; }
    bool is_random() const noexcept { return permutation_.has_value(); }
    // Consecutive ids sharing all series parameters (the product of the
    // non-series radices).
    std::uint64_t series_block_size() const noexcept { return series_block_size_; }

    // ordinal in [0, count()) -> id in [0, full_size()). The identity for a
    // full sweep; a seeded permutation for a random one (see Note [Random
    // combinations without materializing]), whose ids are not sorted: an
    // engine that wants series locality sorts each chunk of ids itself.
    std::uint64_t combination_id(std::uint64_t ordinal) const;
    // id -> its ordinal: the inverse of combination_id, or nothing for an id
    // the sweep does not run (outside the space, or a random sweep's id
    // whose ordinal is count() or more).
    std::optional<std::uint64_t> ordinal_of(std::uint64_t id) const;

    // id -> values, indexed like StrategySpec::parameters. `out.size()` must be
    // parameter_count(); throws std::out_of_range when id >= full_size().
    void decode(std::uint64_t id, std::span<double> values_in_spec_order) const;
    // values -> id; throws SpecError naming the first value that is not on
    // the grid.
    std::uint64_t encode(std::span<const double> values_in_spec_order) const;

    std::size_t parameter_count() const noexcept { return digits_.size(); }
    // Most significant first; what an engine copies into its decode tables.
    const std::vector<Digit>& digits() const noexcept { return digits_; }
    const std::optional<RandomPermutation>& permutation() const noexcept { return permutation_; }
    // Note [Conditional axes]: whether the grid's conditions leave out
    // combinations of the product, and how many it keeps.
    bool is_conditional() const noexcept { return !cases_.empty(); }
    // Whether parameter `parameter`'s axis applies to combination `id`: its
    // condition holds there, or it has none.
    bool applies(std::uint64_t id, std::size_t parameter) const;
    std::uint64_t conditional_size() const noexcept { return conditional_size_; }

private:
    // Note [Run order of a conditional grid].
    struct Case {
        std::uint64_t first_ordinal;
        std::uint64_t size;
        std::uint64_t base_id;              // the controlling digits' part of every id of the case
        std::vector<std::uint32_t> varying;  // indices into digits_, most significant first
    };
    struct DigitCondition {
        std::size_t controller = 0;       // index into digits_
        std::vector<bool> holds;          // per value index of the controller
    };
    std::uint64_t conditional_id(std::uint64_t position) const;
    std::optional<std::uint64_t> conditional_position(std::uint64_t id) const;

    std::vector<Digit> digits_;
    std::vector<std::string> names_;     // by parameter index, for encode's errors
    std::string origin_;
    std::uint64_t full_size_ = 1;
    std::uint64_t count_ = 1;
    std::uint64_t series_block_size_ = 1;
    std::optional<RandomPermutation> permutation_;
    std::vector<Case> cases_;                               // empty without conditions
    std::vector<std::size_t> controllers_;                  // indices into digits_, most significant first
    std::vector<std::optional<DigitCondition>> condition_;  // per digit
    std::uint64_t conditional_size_ = 0;                    // the full size without conditions
};

}  // namespace btforge
