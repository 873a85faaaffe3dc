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
// Rows are ordered by the metric (its better direction first), rows with
// non-finite metrics last (Note [Rows with non-finite metrics], a NaN of the
// ranked metric included), and ties by the smaller combination id. This is a strict total order on ids, so
// the top N is the same set in the same order however the rows were split
// among threads (or devices) and merged.
bool ranks_before(const MetricColumn& metric, const ResultRow& a, const ResultRow& b);

// What ranks_before reads of a row, for keeping millions of rows ranked
// without their metrics (Note [Rows spooled to disk]).
struct RankKey {
    double value;  // the ranked metric
    std::uint64_t combination_id;
    bool valid;    // metrics_are_finite
};
RankKey rank_key(const MetricColumn& metric, const ResultRow& row);
// ranks_before on keys: rank_key_before(m, rank_key(m, a), rank_key(m, b)) == ranks_before(m, a, b).
bool rank_key_before(const MetricColumn& metric, const RankKey& a, const RankKey& b);

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
