#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "host/engine/outcome_key.h"
#include "host/engine/top_n.h"
#include "host/spec/combination_space.h"

namespace btforge {

// A combination's outcome as a report states it (Note [Distinct outcomes]).
struct OutcomeOfRow {
    std::uint64_t first_id = 0;      // the smallest combination id of the outcome
    std::uint64_t combinations = 0;  // how many of the run's combinations have it
};

// Which of a run's combinations share an outcome: built once from every
// combination's key (SweepOutcome::outcomes, or the shards' keys merged),
// then asked by the writers. Holds 8 bytes per combination beside the keys
// it was given, which it does not keep.
class OutcomeIndex {
public:
    // `keys`: the key of the run's combination at ordinal first_ordinal + n,
    // for n < keys.size().
    OutcomeIndex(const CombinationSpace& space, std::uint64_t first_ordinal, std::span<const OutcomeKey> keys);
    // Gathers the parameter values of the outcomes of `rows` (the top ones)
    // for values(): one pass over the run's combinations.
    void describe(std::span<const ResultRow> rows);

    std::uint64_t distinct() const noexcept { return groups_.size(); }
    std::uint64_t combinations() const noexcept { return group_of_.size(); }
    // Combination `id`, one of the run's; throws std::out_of_range otherwise.
    OutcomeOfRow of(std::uint64_t id) const;
    // For a described row's outcome, per parameter (spec order), the values
    // its combinations take, increasing; null for any other row.
    const std::vector<std::vector<double>>* values(std::uint64_t id) const;

private:
    std::uint64_t group(std::uint64_t id) const;

    const CombinationSpace* space_;
    std::uint64_t first_ordinal_;
    std::vector<std::uint64_t> group_of_;  // per ordinal from first_ordinal_
    std::vector<OutcomeOfRow> groups_;
    std::map<std::uint64_t, std::vector<std::vector<double>>> values_;  // by group
};

}  // namespace btforge
