// Note [Distinct outcomes]: what makes two outcomes one, as a table.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "host/engine/metric_columns.h"
#include "host/engine/period_columns.h"
#include "host/engine/row_outcome.h"

namespace btforge {
namespace {

Metrics some_metrics() {
    Metrics m{};
    m.final_equity = 11234.5;
    m.total_return = 0.12345;
    m.net_pnl = 1234.5;
    m.n_trades = 42;
    m.n_wins = 20;
    m.sharpe = 1.25;
    m.profit_factor = std::numeric_limits<double>::infinity();
    return m;
}

double nan_with_payload(unsigned long long payload) {
    unsigned long long bits = 0x7ff8000000000000ull | payload;
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

TEST_CASE("equal values are one outcome; any difference is another") {
    const Metrics base = some_metrics();
    const OutcomeKey key = outcome_of(base, {});
    CHECK(outcome_of(some_metrics(), {}) == key);
    struct Case {
        const char* what;
        void (*edit)(Metrics&);
        bool same;
    };
    const Case cases[] = {
        {"one ulp of final equity", [](Metrics& m) { m.final_equity = std::nextafter(m.final_equity, 0.0); }, false},
        {"one more trade", [](Metrics& m) { m.n_trades += 1; }, false},
        {"a metric moved to another column", [](Metrics& m) { std::swap(m.total_return, m.win_rate); }, false},
        {"-0 for +0", [](Metrics& m) { m.win_rate = -0.0; }, true},
        {"a NaN for a number", [](Metrics& m) { m.calmar = nan_with_payload(1); }, false},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        Metrics m = base;
        c.edit(m);
        CHECK((outcome_of(m, {}) == key) == c.same);
    }
    // Every NaN is one NaN: payloads and signs do not make outcomes.
    Metrics a = base;
    Metrics b = base;
    a.calmar = nan_with_payload(1);
    b.calmar = -nan_with_payload(12345);
    CHECK(outcome_of(a, {}) == outcome_of(b, {}));
    CHECK(outcome_of(a, {}) != key);
}

TEST_CASE("period statistics are part of the outcome, in order") {
    const Metrics m = some_metrics();
    PeriodStatistics p{};
    p.return_sum = 0.01;
    p.bars = 10;
    PeriodStatistics q = p;
    q.trades = 1;
    const std::vector<PeriodStatistics> pq = {p, q};
    const std::vector<PeriodStatistics> qp = {q, p};
    CHECK(outcome_of(m, pq) == outcome_of(m, std::vector<PeriodStatistics>{p, q}));
    CHECK(outcome_of(m, pq) != outcome_of(m, qp));
    CHECK(outcome_of(m, pq) != outcome_of(m, {}));
    CHECK(outcome_of(m, std::vector<PeriodStatistics>{p}) != outcome_of(m, pq));
}

TEST_CASE("outcome_of_row reads the fields in the order of the metric and period columns") {
    // Every field a distinct value, so that a field left out, read twice or
    // out of order gives another key than the columns' sequence.
    Metrics m{};
    m.final_equity = 2; m.total_return = 3; m.net_pnl = 4; m.gross_profit = 5; m.gross_loss = 6; m.fees_paid = 7;
    m.funding_paid = 8; m.n_trades = 9; m.n_wins = 10; m.win_rate = 11; m.profit_factor = 12; m.max_drawdown = 13;
    m.sharpe = 14; m.sortino = 15; m.calmar = 16; m.exposure = 17; m.avg_trade_return = 18;
    m.max_consecutive_losses = 19; m.n_liquidations = 20; m.liquidation_loss = 21; m.ambiguous_bars = 22;
    m.magnified_bars = 23;
    PeriodStatistics p{};
    p.return_sum = 31; p.return_sum_squares = 32; p.downside_sum_squares = 33; p.return_sum_cubes = 34;
    p.return_sum_fourths = 35; p.start_equity = 36; p.end_equity = 37; p.max_drawdown = 38; p.gross_profit = 39;
    p.gross_loss = 40; p.fees = 41; p.funding = 42; p.bars = 43; p.trades = 44; p.wins = 45;
    const PeriodStatistics periods[] = {p, p};
    OutcomeHasher h = outcome_hasher();
    int expected = 2;
    for (const MetricColumn& column : metric_columns()) {
        CHECK(column.read(m) == expected++);  // every column read, in order
        outcome_add(h, column.read(m));
    }
    CHECK(expected == 24);
    for (const PeriodStatistics& period : periods) {
        int field = 31;
        for (const PeriodColumn& column : period_columns()) {
            CHECK(column.read(period) == field++);
            outcome_add(h, column.read(period));
        }
        CHECK(field == 46);
    }
    CHECK(outcome_of(m, periods) == outcome_key(h));
}

TEST_CASE("keys spread: a million outcomes that differ in one value, no two keys equal") {
    std::set<std::pair<unsigned long long, unsigned long long>> seen;
    Metrics m = some_metrics();
    for (int i = 0; i < 1'000'000; ++i) {
        m.n_trades = i;
        const OutcomeKey k = outcome_of(m, {});
        seen.insert({k.high, k.low});
    }
    CHECK(seen.size() == 1'000'000);
}

}  // namespace
}  // namespace btforge
