#include "host/engine/top_n.h"

#include <algorithm>
#include <cmath>

namespace btforge {

RankKey rank_key(const MetricColumn& metric, const ResultRow& row) {
    return RankKey{metric.read(row.metrics), row.combination_id, metrics_are_finite(row.metrics)};
}

bool rank_key_before(const MetricColumn& metric, const RankKey& a, const RankKey& b) {
    // Note [Rows with non-finite metrics]: a NaN of the ranked metric makes
    // a row invalid too, so one test covers both.
    if (a.valid != b.valid) return a.valid;
    if (a.valid && a.value != b.value) return metric.higher_is_better ? a.value > b.value : a.value < b.value;
    return a.combination_id < b.combination_id;
}

bool ranks_before(const MetricColumn& metric, const ResultRow& a, const ResultRow& b) {
    return rank_key_before(metric, rank_key(metric, a), rank_key(metric, b));
}

TopN::TopN(const MetricColumn& metric, std::size_t capacity) : metric_(&metric), capacity_(capacity) {
    heap_.reserve(capacity);
}

void TopN::offer(const ResultRow& row) {
    if (capacity_ == 0) return;
    auto better = [this](const ResultRow& a, const ResultRow& b) { return ranks_before(*metric_, a, b); };
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
        return ranks_before(*metric_, a, b);
    });
    return rows;
}

}  // namespace btforge
