#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <vector>

#include "host/engine/outcome_key.h"
#include "host/engine/top_n.h"

namespace btforge {

// A ranked row and the key of its outcome (Note [Distinct outcomes]).
struct OutcomeRow {
    ResultRow row;
    OutcomeKey key;
};

// Keeps the best `capacity` outcomes offered so far, each by its best row
// (Note [Deterministic ranking]: of equal outcomes, the smallest id). The
// kept set is the same whatever the order of the offers and merges:
// an offered row replaces its outcome's row when it ranks before it, and
// otherwise competes as TopN's rows do. An outcome pushed out is never let
// back in by a row that ranks after the row that was pushed out, since the
// worst kept row only improves.
class TopOutcomes {
public:
    TopOutcomes(const RankOrder& order, std::size_t capacity);
    void offer(const ResultRow& row, const OutcomeKey& key);
    void merge(const TopOutcomes& other);
    // Best first.
    std::vector<OutcomeRow> sorted() const;
    std::vector<ResultRow> sorted_rows() const;
    std::size_t size() const { return ranked_.size(); }

private:
    struct Before {
        RankOrder order;
        bool operator()(const OutcomeRow& a, const OutcomeRow& b) const { return ranks_before(order, a.row, b.row); }
    };
    struct KeyLess {
        bool operator()(const OutcomeKey& a, const OutcomeKey& b) const { return a < b; }
    };
    RankOrder order_;
    std::size_t capacity_;
    std::set<OutcomeRow, Before> ranked_;
    std::map<OutcomeKey, std::set<OutcomeRow, Before>::iterator, KeyLess> by_key_;
};

}  // namespace btforge
