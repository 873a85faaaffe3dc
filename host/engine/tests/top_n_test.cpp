#include <cmath>
#include <limits>

#include <doctest/doctest.h>

#include "host/engine/top_n.h"

using namespace btforge;

namespace {

ResultRow row(std::uint64_t id, double sharpe, double drawdown = 0.1) {
    ResultRow r{};
    r.combination_id = id;
    r.metrics.sharpe = sharpe;
    r.metrics.max_drawdown = drawdown;
    return r;
}

}  // namespace

TEST_CASE("ranking: better metric first, NaN last, ties by smaller id") {
    const MetricColumn& sharpe = *find_metric_column("sharpe");
    CHECK(ranks_before(sharpe, row(5, 2.0), row(1, 1.0)));
    CHECK(ranks_before(sharpe, row(1, 1.0), row(5, 1.0)));
    CHECK_FALSE(ranks_before(sharpe, row(5, 1.0), row(1, 1.0)));
    CHECK(ranks_before(sharpe, row(9, -5.0), row(1, std::nan(""))));
    CHECK(ranks_before(sharpe, row(1, std::nan("")), row(2, std::nan(""))));
    const MetricColumn& drawdown = *find_metric_column("max_drawdown");
    CHECK(ranks_before(drawdown, row(5, 0.0, 0.05), row(1, 0.0, 0.2)));  // lower is better
}

TEST_CASE("rows with non-finite metrics rank after every valid row, whatever the ranked metric") {
    // Note [Rows with non-finite metrics]
    const MetricColumn& sharpe = *find_metric_column("sharpe");
    ResultRow broken = row(1, 9.0);
    broken.metrics.final_equity = std::numeric_limits<double>::infinity();
    CHECK(ranks_before(sharpe, row(7, -3.0), broken));
    CHECK_FALSE(ranks_before(sharpe, broken, row(7, -3.0)));
    ResultRow nan_calmar = row(0, 9.0);
    nan_calmar.metrics.calmar = std::nan("");
    CHECK(ranks_before(sharpe, row(7, -3.0), nan_calmar));
    // Among invalid rows: by id, whatever their values.
    CHECK(ranks_before(sharpe, nan_calmar, broken));
    // profit_factor's +inf (won, never lost) is a valid value and ranks first by it.
    const MetricColumn& profit_factor = *find_metric_column("profit_factor");
    ResultRow flawless = row(9, 1.0);
    flawless.metrics.profit_factor = std::numeric_limits<double>::infinity();
    ResultRow good = row(2, 1.0);
    good.metrics.profit_factor = 3.0;
    CHECK(ranks_before(profit_factor, flawless, good));
    CHECK(ranks_before(sharpe, flawless, broken));
}

TEST_CASE("top N merged from any split equals the top N of all rows") {
    const MetricColumn& sharpe = *find_metric_column("sharpe");
    std::vector<ResultRow> rows;
    for (std::uint64_t id = 0; id < 200; ++id) rows.push_back(row(id, static_cast<double>((id * 37) % 11)));
    TopN all(sharpe, 15);
    for (const ResultRow& r : rows) all.offer(r);
    for (std::size_t parts : {2u, 3u, 7u}) {
        CAPTURE(parts);
        std::vector<TopN> partial(parts, TopN(sharpe, 15));
        for (std::size_t i = 0; i < rows.size(); ++i) partial[(i * 13) % parts].offer(rows[i]);
        TopN merged(sharpe, 15);
        for (const TopN& p : partial) merged.merge(p);
        std::vector<ResultRow> a = all.sorted(), b = merged.sorted();
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].combination_id == b[i].combination_id);
    }
    std::vector<ResultRow> best = all.sorted();
    CHECK(best.front().metrics.sharpe == 10.0);
    for (std::size_t i = 1; i < best.size(); ++i) CHECK(ranks_before(sharpe, best[i - 1], best[i]));
}
