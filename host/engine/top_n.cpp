#include "host/engine/top_n.h"

#include <algorithm>
#include <cmath>

namespace btforge {

bool ranks_before(const MetricColumn& metric, const ResultRow& a, const ResultRow& b) {
    double x = metric.read(a.metrics);
    double y = metric.read(b.metrics);
    bool x_nan = std::isnan(x);
    bool y_nan = std::isnan(y);
    if (x_nan != y_nan) return y_nan;
    if (!x_nan && x != y) return metric.higher_is_better ? x > y : x < y;
    return a.combination_id < b.combination_id;
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
