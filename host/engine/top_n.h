#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/engine/metric_columns.h"
#include "reference/metrics/metrics.h"

namespace btforge {

struct ResultRow {
    std::uint64_t combination_id;
    Metrics metrics;
};

// Note [Deterministic ranking]
// Rows are ordered by the metric (its better direction first), NaN last, and
// ties by the smaller combination id. This is a strict total order on ids, so
// the top N is the same set in the same order however the rows were split
// among threads (or devices) and merged.
bool ranks_before(const MetricColumn& metric, const ResultRow& a, const ResultRow& b);

// Keeps the best `capacity` rows offered so far.
class TopN {
public:
    TopN(const MetricColumn& metric, std::size_t capacity);
    void offer(const ResultRow& row);
    void merge(const TopN& other);
    // Best first.
    std::vector<ResultRow> sorted() const;

private:
    const MetricColumn* metric_;
    std::size_t capacity_;
    std::vector<ResultRow> heap_;  // worst row on top
};

}  // namespace btforge
