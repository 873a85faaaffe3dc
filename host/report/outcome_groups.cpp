#include "host/report/outcome_groups.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>

namespace btforge {

OutcomeIndex::OutcomeIndex(const CombinationSpace& space, std::uint64_t first_ordinal,
                           std::span<const OutcomeKey> keys)
    : space_(&space), first_ordinal_(first_ordinal), group_of_(keys.size()) {
    // The ordinals sorted by key: each outcome is one run of them.
    std::vector<std::uint64_t> order(keys.size());
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    std::sort(order.begin(), order.end(), [&keys](std::uint64_t a, std::uint64_t b) {
        return keys[a] != keys[b] ? keys[a] < keys[b] : a < b;
    });
    for (std::size_t i = 0; i < order.size(); ++i) {
        const std::uint64_t id = space.combination_id(first_ordinal + order[i]);
        if (i == 0 || keys[order[i]] != keys[order[i - 1]]) groups_.push_back(OutcomeOfRow{id, 0});
        OutcomeOfRow& g = groups_.back();
        g.first_id = std::min(g.first_id, id);  // a random grid's ids do not grow with the ordinal
        g.combinations += 1;
        group_of_[order[i]] = groups_.size() - 1;
    }
}

void OutcomeIndex::describe(std::span<const ResultRow> rows) {
    std::map<std::uint64_t, std::vector<std::set<double>>> seen;
    for (const ResultRow& row : rows) {
        const std::uint64_t g = group(row.combination_id);
        if (values_.count(g) == 0) seen.emplace(g, std::vector<std::set<double>>(space_->parameter_count()));
    }
    if (seen.empty()) return;
    std::vector<double> values(space_->parameter_count());
    for (std::size_t n = 0; n < group_of_.size(); ++n) {
        const auto found = seen.find(group_of_[n]);
        if (found == seen.end()) continue;
        space_->decode(space_->combination_id(first_ordinal_ + n), values);
        for (std::size_t p = 0; p < values.size(); ++p) found->second[p].insert(values[p]);
    }
    for (auto& [g, sets] : seen) {
        std::vector<std::vector<double>>& out = values_[g];
        for (const std::set<double>& s : sets) out.emplace_back(s.begin(), s.end());
    }
}

std::uint64_t OutcomeIndex::group(std::uint64_t id) const {
    const std::optional<std::uint64_t> ordinal = space_->ordinal_of(id);
    if (!ordinal || *ordinal < first_ordinal_ || *ordinal - first_ordinal_ >= group_of_.size()) {
        throw std::out_of_range("combination " + std::to_string(id) + " is not one of the run's");
    }
    return group_of_[*ordinal - first_ordinal_];
}

OutcomeOfRow OutcomeIndex::of(std::uint64_t id) const { return groups_[group(id)]; }

const std::vector<std::vector<double>>* OutcomeIndex::values(std::uint64_t id) const {
    const auto found = values_.find(group(id));
    return found == values_.end() ? nullptr : &found->second;
}

}  // namespace btforge
