#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/engine/metric_columns.h"
#include "host/engine/rank_tier.h"
#include "reference/metrics/metrics.h"

namespace btforge {

struct ResultRow {
    std::uint64_t combination_id;
    Metrics metrics;
};

// Note [Deterministic ranking]
// Rows are ordered by their group (Note [Rows with few trades]: rows with
// enough trades, then rows with fewer than min_trades, then rows with
// non-finite metrics, Note [Rows with non-finite metrics], a NaN of the
// ranked metric included), inside a group by the metric (its better
// direction first; rows with non-finite metrics skip this step), and ties
// by the smaller combination id. This is a strict total order on ids, so
// the top N is the same set in the same order however the rows were split
// among threads (or devices) and merged.
struct RankOrder {
    const MetricColumn* metric = nullptr;
    int min_trades = kDefaultMinTrades;
};
bool ranks_before(const RankOrder& order, const ResultRow& a, const ResultRow& b);

// What ranks_before reads of a row, for keeping millions of rows ranked
// without their metrics (Note [Rows spooled to disk]).
struct RankKey {
    double value;  // the ranked metric
    std::uint64_t combination_id;
    RankTier tier;
};
RankKey rank_key(const RankOrder& order, const ResultRow& row);
// ranks_before on keys: rank_key_before(o, rank_key(o, a), rank_key(o, b)) == ranks_before(o, a, b).
bool rank_key_before(const RankOrder& order, const RankKey& a, const RankKey& b);

// Keeps the best `capacity` rows offered so far.
class TopN {
public:
    TopN(const RankOrder& order, std::size_t capacity);
    void offer(const ResultRow& row);
    void merge(const TopN& other);
    // Best first.
    std::vector<ResultRow> sorted() const;

private:
    RankOrder order_;
    std::size_t capacity_;
    std::vector<ResultRow> heap_;  // worst row on top
};

}  // namespace btforge
