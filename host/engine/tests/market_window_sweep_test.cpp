// Note [Market windows]: a run over a window of the market is the run a
// strategy started at the window's first bar would make, its indicators
// having warmed up on the bars before. The check builds that second run
// independently: a market cut at the window (its own arrays, rows of the
// window's length) and the whole-market series cut the same way, and asks
// for the same bits from every strategy.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "host/engine/tests/small_sweep.h"

using namespace btforge;
using btforge::testing::SmallSweep;

namespace {

const char* kGrids[][2] = {
    {"default.json", R"({"strategy": "default", "parameters": {"ema_fast": {"values": [5, 12]},
        "ema_slow": {"values": [30, 60]}, "mode": {"values": [0, 1]}, "sl_atr": {"values": [1.5, 3]},
        "trail_atr": {"values": [0, 1]}}})"},
    {"sma_cross.json", R"({"strategy": "sma_cross", "parameters": {"fast_period": {"values": [5, 20]},
        "slow_period": {"values": [30, 50]}, "allow_short": {"values": [false, true]}}})"},
    {"band_reversion.json", R"({"strategy": "band_reversion", "parameters": {}})"},
};

// Bars [first, first + n) of every per-bar array, in rows of n.
Market cut_market(const Market& m, int first, int n) {
    Market cut;
    cut.symbols = m.symbols;
    cut.instruments = m.instruments;
    cut.timestamp_ms.assign(m.timestamp_ms.begin() + first, m.timestamp_ms.begin() + first + n);
    auto rows = [&](const auto& column) {
        std::remove_cvref_t<decltype(column)> out;
        for (int s = 0; s < m.n_symbols(); ++s) {
            const auto begin = column.begin() + static_cast<std::ptrdiff_t>(m.index(s, first));
            out.insert(out.end(), begin, begin + n);
        }
        return out;
    };
    cut.open = rows(m.open);
    cut.high = rows(m.high);
    cut.low = rows(m.low);
    cut.close = rows(m.close);
    cut.volume = rows(m.volume);
    cut.funding_rate = rows(m.funding_rate);
    cut.funding_events = rows(m.funding_events);
    cut.tradable = rows(m.tradable);
    cut.set_instrument_columns();
    return cut;
}

bool same_bits(const Metrics& a, const Metrics& b) { return std::memcmp(&a, &b, sizeof(Metrics)) == 0; }

}  // namespace

TEST_CASE("a window's run equals the run of a market cut at the window, with the series warmed up before it") {
    for (const auto& [spec_file, grid] : kGrids) {
        CAPTURE(spec_file);
        SmallSweep sweep(spec_file, grid);
        const MarketWindow window{900, 1100};
        SweepJob windowed = sweep.job;
        windowed.window = window;
        const Market cut = cut_market(sweep.market, window.first_bar, window.n_bars);
        const std::size_t n_uses = sweep.spec.indicators.size();

        int warmed_up_at_start = 0;
        for (std::uint64_t ordinal = 0; ordinal < sweep.space.count(); ordinal += 3) {
            CAPTURE(ordinal);
            std::vector<double> values(sweep.spec.parameters.size());
            sweep.space.decode(sweep.space.combination_id(ordinal), values);

            std::vector<double> equity(static_cast<std::size_t>(window.n_bars));
            const Metrics a = run_combination(windowed, values, nullptr, equity.data());

            // The same series, copied out of the whole market's into rows of the window's length.
            std::vector<const double*> whole(n_uses);
            sweep.series.resolve(values, whole);
            std::vector<std::vector<double>> cut_series(n_uses);
            std::vector<const double*> cut_pointers(n_uses);
            for (std::size_t u = 0; u < n_uses; ++u) {
                for (int s = 0; s < cut.n_symbols(); ++s) {
                    const double* row = whole[u] + sweep.market.index(s, window.first_bar);
                    cut_series[u].insert(cut_series[u].end(), row, row + window.n_bars);
                }
                cut_pointers[u] = cut_series[u].data();
                if (!std::isnan(cut_series[u][0])) ++warmed_up_at_start;
            }
            Metrics b{};
            std::vector<double> cut_equity(static_cast<std::size_t>(window.n_bars));
            sweep.job.binding->run(cut.view(), cut_pointers.data(), values.data(), sweep.job.account, b, nullptr,
                                   cut_equity.data(), nullptr);
            CHECK(same_bits(a, b));
            CHECK(std::memcmp(equity.data(), cut_equity.data(), equity.size() * sizeof(double)) == 0);
        }
        // The windows start with indicators that already have values: the
        // warm-up is real, not a run from NaNs.
        if (n_uses > 0) CHECK(warmed_up_at_start > 0);
    }
}

TEST_CASE("the whole-market window is the whole run, and a later window changes the result") {
    SmallSweep sweep("sma_cross.json", kGrids[1][1]);
    SweepJob whole = sweep.job;
    whole.window = whole_market(sweep.market);
    SweepJob later = sweep.job;
    later.window = MarketWindow{1200, sweep.market.n_bars() - 1200};
    int differ = 0;
    for (std::uint64_t ordinal = 0; ordinal < sweep.space.count(); ++ordinal) {
        std::vector<double> values(sweep.spec.parameters.size());
        sweep.space.decode(sweep.space.combination_id(ordinal), values);
        const Metrics reference = run_combination(sweep.job, values, nullptr, nullptr);
        CHECK(same_bits(run_combination(whole, values, nullptr, nullptr), reference));
        if (!same_bits(run_combination(later, values, nullptr, nullptr), reference)) ++differ;
    }
    CHECK(differ == static_cast<int>(sweep.space.count()));
}

// Note [Period statistics] on real strategies: the periods of a window's run
// cover its bars, chain their equities from the initial to the final one, and
// their trades and wins add up to the run's; asking for them changes no metric.
TEST_CASE("period statistics of every strategy add up to its metrics, over a window") {
    for (const auto& [spec_file, grid] : kGrids) {
        CAPTURE(spec_file);
        SmallSweep sweep(spec_file, grid);
        SweepJob job = sweep.job;
        job.window = MarketWindow{700, 1601};
        for (int n_periods : {1, 7, 16}) {
            CAPTURE(n_periods);
            job.account.n_periods = n_periods;
            for (std::uint64_t ordinal = 0; ordinal < sweep.space.count(); ordinal += 5) {
                std::vector<double> values(sweep.spec.parameters.size());
                sweep.space.decode(sweep.space.combination_id(ordinal), values);
                std::vector<PeriodStatistics> periods(static_cast<std::size_t>(n_periods));
                const Metrics m = run_combination(job, values, nullptr, nullptr, periods.data());
                SweepJob without = job;
                without.account.n_periods = 0;
                CHECK(same_bits(m, run_combination(without, values, nullptr, nullptr)));
                int bars = 0, trades = 0, wins = 0;
                double previous_end = job.account.initial_equity;
                for (const PeriodStatistics& p : periods) {
                    bars += p.bars;
                    trades += p.trades;
                    wins += p.wins;
                    CHECK(p.start_equity == previous_end);
                    previous_end = p.end_equity;
                    CHECK(p.max_drawdown <= m.max_drawdown);
                }
                CHECK(bars == job.window.n_bars);
                CHECK(trades == m.n_trades);
                CHECK(wins == m.n_wins);
                CHECK(previous_end == m.final_equity);
            }
        }
    }
}

// Note [Equity marks]: the M marks are the every-bar curve read at the last
// bar of each of M parts, over a window, for every strategy; the run's
// metrics do not change; a sweep keeps them per combination in run order.
TEST_CASE("equity marks are the equity curve at the end of each part, and change nothing else") {
    for (const auto& [spec_file, grid] : kGrids) {
        CAPTURE(spec_file);
        SmallSweep sweep(spec_file, grid);
        SweepJob job = sweep.job;
        job.window = MarketWindow{700, 1601};
        const int n = job.window.n_bars;
        for (int marks : {1, 7, 256, n}) {
            CAPTURE(marks);
            for (std::uint64_t ordinal = 0; ordinal < sweep.space.count(); ordinal += 7) {
                std::vector<double> values(sweep.spec.parameters.size());
                sweep.space.decode(sweep.space.combination_id(ordinal), values);
                std::vector<double> curve(static_cast<std::size_t>(n));
                const Metrics every_bar = run_combination(job, values, nullptr, curve.data());
                SweepJob marked = job;
                marked.account.equity_marks = marks;
                std::vector<double> kept(static_cast<std::size_t>(marks) + 1, -1.0);  // one more: nothing past M
                const Metrics m = run_combination(marked, values, nullptr, kept.data());
                CHECK(same_bits(m, every_bar));
                for (int i = 0; i < marks; ++i) {
                    const long long last_bar = static_cast<long long>(i + 1) * n / marks - 1;
                    CHECK(std::memcmp(&kept[static_cast<std::size_t>(i)], &curve[static_cast<std::size_t>(last_bar)],
                                      sizeof(double)) == 0);
                }
                CHECK(kept.back() == -1.0);
                CHECK(kept[static_cast<std::size_t>(marks) - 1] == m.final_equity);
            }
        }
        // A sweep: marks per combination, ordinal-major, the same as one run's.
        SweepJob marked = job;
        marked.account.equity_marks = 16;
        SweepOptions options;
        options.rank_metric = find_metric_column("sharpe");
        options.threads = 3;
        const SweepOutcome outcome = run_cpu_sweep(marked, options);
        REQUIRE(outcome.equity_marks.size() == outcome.combinations * 16);
        const std::uint64_t last = outcome.combinations - 1;
        std::vector<double> values(sweep.spec.parameters.size());
        sweep.space.decode(sweep.space.combination_id(last), values);
        std::vector<double> one(16);
        run_combination(marked, values, nullptr, one.data());
        CHECK(std::memcmp(one.data(), outcome.equity_marks.data() + last * 16, 16 * sizeof(double)) == 0);
    }
}
