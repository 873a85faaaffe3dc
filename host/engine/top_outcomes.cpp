#include "host/engine/top_outcomes.h"

#include <iterator>

namespace btforge {

TopOutcomes::TopOutcomes(const RankOrder& order, std::size_t capacity)
    : order_(order), capacity_(capacity), ranked_(Before{order}) {}

void TopOutcomes::offer(const ResultRow& row, const OutcomeKey& key) {
    if (capacity_ == 0) return;
    const auto kept = by_key_.find(key);
    if (kept != by_key_.end()) {
        if (!ranks_before(order_, row, kept->second->row)) return;
        ranked_.erase(kept->second);
        kept->second = ranked_.insert(OutcomeRow{row, key}).first;
        return;
    }
    if (ranked_.size() == capacity_) {
        const auto worst = std::prev(ranked_.end());
        if (!ranks_before(order_, row, worst->row)) return;
        by_key_.erase(worst->key);
        ranked_.erase(worst);
    }
    by_key_.emplace(key, ranked_.insert(OutcomeRow{row, key}).first);
}

void TopOutcomes::merge(const TopOutcomes& other) {
    for (const OutcomeRow& r : other.ranked_) offer(r.row, r.key);
}

std::vector<OutcomeRow> TopOutcomes::sorted() const { return {ranked_.begin(), ranked_.end()}; }

std::vector<ResultRow> TopOutcomes::sorted_rows() const {
    std::vector<ResultRow> rows;
    rows.reserve(ranked_.size());
    for (const OutcomeRow& r : ranked_) rows.push_back(r.row);
    return rows;
}

}  // namespace btforge
