#include <cmath>
#include <limits>

#include <doctest/doctest.h>

#include "host/engine/top_n.h"

using namespace btforge;

namespace {

ResultRow row(std::uint64_t id, double sharpe, double drawdown = 0.1, int trades = 0) {
    ResultRow r{};
    r.combination_id = id;
    r.metrics.sharpe = sharpe;
    r.metrics.max_drawdown = drawdown;
    r.metrics.n_trades = trades;
    return r;
}

// Without a minimum of trades: the metric, then the id.
RankOrder by(const char* metric) { return RankOrder{find_metric_column(metric), 0}; }

}  // namespace

TEST_CASE("ranking: better metric first, NaN last, ties by smaller id") {
    const RankOrder sharpe = by("sharpe");
    CHECK(ranks_before(sharpe, row(5, 2.0), row(1, 1.0)));
    CHECK(ranks_before(sharpe, row(1, 1.0), row(5, 1.0)));
    CHECK_FALSE(ranks_before(sharpe, row(5, 1.0), row(1, 1.0)));
    CHECK(ranks_before(sharpe, row(9, -5.0), row(1, std::nan(""))));
    CHECK(ranks_before(sharpe, row(1, std::nan("")), row(2, std::nan(""))));
    const RankOrder drawdown = by("max_drawdown");
    CHECK(ranks_before(drawdown, row(5, 0.0, 0.05), row(1, 0.0, 0.2)));  // lower is better
}

TEST_CASE("rows with non-finite metrics rank after every valid row, whatever the ranked metric") {
    // Note [Rows with non-finite metrics]
    const RankOrder sharpe = by("sharpe");
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
    const RankOrder profit_factor = by("profit_factor");
    ResultRow flawless = row(9, 1.0);
    flawless.metrics.profit_factor = std::numeric_limits<double>::infinity();
    ResultRow good = row(2, 1.0);
    good.metrics.profit_factor = 3.0;
    CHECK(ranks_before(profit_factor, flawless, good));
    CHECK(ranks_before(sharpe, flawless, broken));
}

TEST_CASE("top N merged from any split equals the top N of all rows") {
    const RankOrder sharpe{find_metric_column("sharpe"), 3};
    std::vector<ResultRow> rows;
    // Trades 0..5 against a minimum of 3: both groups of Note [Rows with few trades].
    for (std::uint64_t id = 0; id < 200; ++id) {
        rows.push_back(row(id, static_cast<double>((id * 37) % 11), 0.1, static_cast<int>(id % 6)));
    }
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
    CHECK(best.front().metrics.n_trades >= 3);
    for (std::size_t i = 1; i < best.size(); ++i) CHECK(ranks_before(sharpe, best[i - 1], best[i]));
}

// Note [Rows with few trades]: issue 29's 48-bar window ranked a row of one
// trade first (Sharpe 2.74, profit factor +inf).
TEST_CASE("rows with fewer than min_trades trades rank after the others, before invalid rows") {
    const RankOrder sharpe{find_metric_column("sharpe"), 10};
    const ResultRow lucky = row(1, 2.74, 0.1, 1);
    const ResultRow steady = row(2, 0.5, 0.1, 40);
    const ResultRow exactly = row(3, 0.1, 0.1, 10);
    ResultRow broken = row(0, 9.0, 0.1, 50);
    broken.metrics.calmar = std::nan("");
    CHECK(ranks_before(sharpe, steady, lucky));
    CHECK(ranks_before(sharpe, exactly, lucky));  // 10 trades are enough
    CHECK(ranks_before(sharpe, lucky, broken));   // a few trades are still results
    CHECK_FALSE(ranks_before(sharpe, lucky, steady));
    // Inside the group of few trades: the metric, then the id.
    CHECK(ranks_before(sharpe, lucky, row(0, 1.0, 0.1, 9)));
    CHECK(ranks_before(sharpe, row(4, 1.0, 0.1, 2), row(5, 1.0, 0.1, 0)));
    // The same rows without a minimum: the metric alone.
    CHECK(ranks_before(RankOrder{sharpe.metric, 0}, lucky, steady));
    // A profit factor of +inf from one won trade no longer wins by profit factor.
    ResultRow flawless = lucky;
    flawless.metrics.profit_factor = std::numeric_limits<double>::infinity();
    ResultRow good = steady;
    good.metrics.profit_factor = 1.2;
    CHECK(ranks_before(RankOrder{find_metric_column("profit_factor"), 10}, good, flawless));
    CHECK(ranks_before(RankOrder{find_metric_column("profit_factor"), 0}, flawless, good));
    // The keys order as the rows do, and say the group.
    CHECK(rank_key(sharpe, lucky).tier == RankTier::FewTrades);
    CHECK(rank_key(sharpe, steady).tier == RankTier::Ranked);
    CHECK(rank_key(sharpe, broken).tier == RankTier::Invalid);
    CHECK(rank_key_before(sharpe, rank_key(sharpe, steady), rank_key(sharpe, lucky)));
    // TopN keeps the same order.
    TopN top(sharpe, 3);
    for (const ResultRow& r : {broken, lucky, steady, exactly}) top.offer(r);
    const std::vector<ResultRow> best = top.sorted();
    REQUIRE(best.size() == 3);
    CHECK(best[0].combination_id == 2);
    CHECK(best[1].combination_id == 3);
    CHECK(best[2].combination_id == 1);
}

TEST_CASE("the default minimum is the command line's, and 0 turns the marking off") {
    CHECK(RankOrder{}.min_trades == kDefaultMinTrades);
    CHECK(has_enough_trades(row(0, 0.0, 0.1, 0).metrics, 0));
    CHECK_FALSE(has_enough_trades(row(0, 0.0, 0.1, kDefaultMinTrades - 1).metrics, kDefaultMinTrades));
}
