// TopOutcomes (Note [Distinct outcomes]): one row per outcome, the same
// set for any order of offers and merges, against a brute-force oracle.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "host/engine/metric_columns.h"
#include "host/engine/top_outcomes.h"

namespace btforge {
namespace {

ResultRow row_of(std::uint64_t id, double sharpe) {
    ResultRow r{};
    r.combination_id = id;
    r.metrics.sharpe = sharpe;
    r.metrics.n_trades = 100;
    r.metrics.final_equity = 1.0;
    return r;
}

OutcomeKey key_of(unsigned long long k) { return OutcomeKey{k, ~k}; }

TEST_CASE("worked: equal outcomes are one row, its smallest id; the next outcome takes the freed place") {
    const RankOrder order{find_metric_column("sharpe"), 0};
    TopOutcomes top(order, 2);
    top.offer(row_of(7, 2.0), key_of(1));
    top.offer(row_of(3, 2.0), key_of(1));  // the same outcome, a smaller id: replaces 7
    top.offer(row_of(9, 2.0), key_of(1));  // ranks after 3: ignored
    top.offer(row_of(5, 1.0), key_of(2));
    top.offer(row_of(4, 0.5), key_of(3));  // third outcome: below the two kept
    const std::vector<OutcomeRow> kept = top.sorted();
    REQUIRE(kept.size() == 2);
    CHECK(kept[0].row.combination_id == 3);
    CHECK(kept[1].row.combination_id == 5);
}

TEST_CASE("the kept outcomes are the oracle's for any order of offers and any split into merged parts") {
    const RankOrder order{find_metric_column("sharpe"), 0};
    std::mt19937_64 random(5);
    for (int trial = 0; trial < 200; ++trial) {
        CAPTURE(trial);
        const int n = 1 + static_cast<int>(random() % 300);
        const int outcomes = 1 + static_cast<int>(random() % 40);
        const std::size_t capacity = 1 + random() % 12;
        // Rows of one outcome share its metrics; outcomes may tie in sharpe.
        std::vector<double> sharpe_of(static_cast<std::size_t>(outcomes));
        for (double& s : sharpe_of) s = static_cast<double>(random() % 8);
        std::vector<OutcomeRow> rows;
        for (int i = 0; i < n; ++i) {
            const unsigned long long k = random() % static_cast<unsigned long long>(outcomes);
            rows.push_back({row_of(static_cast<std::uint64_t>(i), sharpe_of[k]), key_of(k)});
        }
        // Oracle: the best row of each outcome, ranked, the first `capacity`.
        std::map<unsigned long long, ResultRow> best;
        for (const OutcomeRow& r : rows) {
            auto [at, fresh] = best.emplace(r.key.high, r.row);
            if (!fresh && ranks_before(order, r.row, at->second)) at->second = r.row;
        }
        std::vector<ResultRow> expected;
        for (const auto& [k, r] : best) expected.push_back(r);
        std::sort(expected.begin(), expected.end(),
                  [&](const ResultRow& a, const ResultRow& b) { return ranks_before(order, a, b); });
        if (expected.size() > capacity) expected.resize(capacity);

        std::shuffle(rows.begin(), rows.end(), random);
        const std::size_t parts = 1 + random() % 4;
        std::vector<TopOutcomes> partial(parts, TopOutcomes(order, capacity));
        for (std::size_t i = 0; i < rows.size(); ++i) partial[i % parts].offer(rows[i].row, rows[i].key);
        TopOutcomes all(order, capacity);
        for (const TopOutcomes& p : partial) all.merge(p);
        const std::vector<OutcomeRow> kept = all.sorted();
        REQUIRE(kept.size() == expected.size());
        for (std::size_t i = 0; i < kept.size(); ++i) CHECK(kept[i].row.combination_id == expected[i].combination_id);
    }
}

}  // namespace
}  // namespace btforge
