#include "host/engine/top_n.h"

#include <algorithm>
#include <cmath>

namespace btforge {

RankKey rank_key(const RankOrder& order, const ResultRow& row) {
    return RankKey{order.metric->read(row.metrics), row.combination_id, rank_tier(row.metrics, order.min_trades)};
}

bool rank_key_before(const RankOrder& order, const RankKey& a, const RankKey& b) {
    // Note [Rows with non-finite metrics]: a NaN of the ranked metric makes
    // a row invalid too, so the metric is compared only inside the valid
    // groups (Note [Rows with few trades]).
    if (a.tier != b.tier) return a.tier < b.tier;
    if (a.tier != RankTier::Invalid && a.value != b.value) {
        return order.metric->higher_is_better ? a.value > b.value : a.value < b.value;
    }
    return a.combination_id < b.combination_id;
}

bool ranks_before(const RankOrder& order, const ResultRow& a, const ResultRow& b) {
    return rank_key_before(order, rank_key(order, a), rank_key(order, b));
}

TopN::TopN(const RankOrder& order, std::size_t capacity) : order_(order), capacity_(capacity) {
    heap_.reserve(capacity);
}

void TopN::offer(const ResultRow& row) {
    if (capacity_ == 0) return;
    auto better = [this](const ResultRow& a, const ResultRow& b) { return ranks_before(order_, a, b); };
    if (heap_.size() < capacity_) {
        heap_.push_back(row);
        std::push_heap(heap_.begin(), heap_.end(), better);
        return;
    }
    if (!better(row, heap_.front())) return;
    std::pop_heap(heap_.begin(), heap_.end(), better);
    heap_.back() = row;
    std::push_heap(heap_.begin(), heap_.end(), better);
}

void TopN::merge(const TopN& other) {
    for (const ResultRow& row : other.heap_) offer(row);
}

std::vector<ResultRow> TopN::sorted() const {
    std::vector<ResultRow> rows = heap_;
    std::sort(rows.begin(), rows.end(), [this](const ResultRow& a, const ResultRow& b) {
        return ranks_before(order_, a, b);
    });
    return rows;
}

}  // namespace btforge
