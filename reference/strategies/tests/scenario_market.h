#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "reference/accounting/fee_model.h"
#include "reference/margin/default_margin_schedule.h"
#include "reference/margin/margin_schedule.h"
#include "reference/market/bar_legs.h"
#include "reference/market/market_view.h"
#include "reference/metrics/metrics.h"
#include "reference/portfolio/fill_log.h"

namespace btforge::testing {

// A hand-made market for one rule at a time: every bar flat at `price`,
// tradable, no funding; tests then shape the bars they care about.
struct ScenarioMarket {
    int n_symbols;
    int n_bars;
    std::vector<std::int64_t> ts;
    std::vector<double> open, high, low, close, volume, funding_rate;
    std::vector<std::int32_t> funding_events;
    std::vector<std::uint8_t> tradable;
    double qty_step = 0.001, min_qty = 0.001, price_tick = 0.01;  // every symbol's
    std::vector<MarginSchedule> margin;  // per symbol: Note [Default margin schedule] unless a test sets one
    // The three above per symbol, filled by view().
    mutable std::vector<double> qty_steps, min_qtys, price_ticks;
    // Finer bars (Note [Finer bars]): none until a test gives a bar its path.
    int fine_per_bar = 0;
    std::vector<std::uint8_t> fine_path;
    std::vector<double> fine_open, fine_high, fine_low;
    // Note [A bar as three legs]: +1 or -1 walks every bar's legs instead (no path is then given).
    int fine_legs = 0;
    // Note [Mark price]: the cells given a mark bar (mark()); view() gives every other cell the last
    // price's own, as the host does for a cell the mark file lacks.
    std::vector<std::uint8_t> marked;
    std::vector<double> marked_open, marked_high, marked_low;
    mutable std::vector<double> mark_opens, mark_highs, mark_lows;

    ScenarioMarket(int symbols, int bars, double price = 100.0)
        : n_symbols(symbols), n_bars(bars), ts(static_cast<std::size_t>(bars)),
          margin(static_cast<std::size_t>(symbols), default_margin_schedule()) {
        std::size_t cells = static_cast<std::size_t>(symbols * bars);
        open.assign(cells, price);
        high.assign(cells, price);
        low.assign(cells, price);
        close.assign(cells, price);
        volume.assign(cells, 1.0);
        funding_rate.assign(cells, 0.0);
        funding_events.assign(cells, 0);
        tradable.assign(cells, 1);
        for (int t = 0; t < bars; ++t) ts[static_cast<std::size_t>(t)] = 3'600'000LL * t;
    }
    std::size_t at(int s, int t) const { return static_cast<std::size_t>(s * n_bars + t); }
    void bar(int s, int t, double o, double h, double l, double c) {
        open[at(s, t)] = o;
        high[at(s, t)] = h;
        low[at(s, t)] = l;
        close[at(s, t)] = c;
    }
    // Bar (s, t)'s mark price: its open, high and low (Note [Mark price]).
    void mark(int s, int t, double o, double h, double l) {
        if (marked.empty()) {
            marked.assign(open.size(), 0);
            marked_open.assign(open.size(), 0.0);
            marked_high.assign(open.size(), 0.0);
            marked_low.assign(open.size(), 0.0);
        }
        marked[at(s, t)] = 1;
        marked_open[at(s, t)] = o;
        marked_high[at(s, t)] = h;
        marked_low[at(s, t)] = l;
    }
    // Bar (s, t)'s path: finer bars {open, high, low, close} each, the same
    // count for every bar of the market. The test keeps them consistent with
    // the bar (the host checks that of a file: Note [Checking finer bars]).
    struct Finer {
        double open, high, low, close;
    };
    void path(int s, int t, const std::vector<Finer>& finer) {
        if (fine_per_bar == 0) {
            fine_per_bar = static_cast<int>(finer.size());
            fine_path.assign(open.size(), 0);
            fine_open.assign(open.size() * finer.size(), 0.0);
            fine_high.assign(open.size() * finer.size(), 0.0);
            fine_low.assign(open.size() * finer.size(), 0.0);
        }
        if (static_cast<int>(finer.size()) != fine_per_bar) throw std::invalid_argument("one count of finer bars per bar");
        fine_path[at(s, t)] = 1;
        for (std::size_t k = 0; k < finer.size(); ++k) {
            fine_open[at(s, t) * finer.size() + k] = finer[k].open;
            fine_high[at(s, t) * finer.size() + k] = finer[k].high;
            fine_low[at(s, t) * finer.size() + k] = finer[k].low;
        }
    }
    MarketView view() const {
        MarketView v{};
        v.n_symbols = n_symbols;
        v.n_bars = n_bars;
        v.bar_stride = n_bars;
        v.timestamp_ms = ts.data();
        v.open = open.data();
        v.high = high.data();
        v.low = low.data();
        v.close = close.data();
        v.volume = volume.data();
        v.funding_rate = funding_rate.data();
        v.funding_events = funding_events.data();
        v.tradable = tradable.data();
        v.margin = margin.data();
        qty_steps.assign(static_cast<std::size_t>(n_symbols), qty_step);
        min_qtys.assign(static_cast<std::size_t>(n_symbols), min_qty);
        price_ticks.assign(static_cast<std::size_t>(n_symbols), price_tick);
        v.qty_step = qty_steps.data();
        v.min_qty = min_qtys.data();
        v.price_tick = price_ticks.data();
        v.fine_per_bar = fine_legs != 0 ? kBarLegs : fine_per_bar;
        v.fine_legs = fine_legs;
        v.fine_path = fine_path.data();
        v.fine_open = fine_open.data();
        v.fine_high = fine_high.data();
        v.fine_low = fine_low.data();
        if (!marked.empty()) {
            mark_opens = open;
            mark_highs = high;
            mark_lows = low;
            for (std::size_t i = 0; i < marked.size(); ++i) {
                if (marked[i] == 0) continue;
                mark_opens[i] = marked_open[i];
                mark_highs[i] = marked_high[i];
                mark_lows[i] = marked_low[i];
            }
            v.mark_open = mark_opens.data();
            v.mark_high = mark_highs.data();
            v.mark_low = mark_lows.data();
        }
        return v;
    }
};

// No fees, no slippage: fills land exactly on the prices a test names.
inline AccountConfig frictionless_account() { return AccountConfig{10000.0, 0.0, 0.0, 0.0, 1.0, 0, kCrossMargin, 0, 0}; }

struct ScenarioResult {
    Metrics metrics{};
    std::vector<FillRecord> fills;    // the log's fills
    std::vector<FillRecord> funding;  // its funding settlements (Note [Funding in the fill log])
    std::vector<double> equity;

    int count(int reason) const {
        int n = 0;
        for (const FillRecord& f : fills) n += f.reason == reason ? 1 : 0;
        return n;
    }
};

// Runs a strategy kernel with a fill log large enough for any scenario.
template <typename Run>
ScenarioResult run_scenario(int n_bars, Run run) {
    ScenarioResult result;
    std::vector<FillRecord> records(256);
    result.equity.resize(static_cast<std::size_t>(n_bars));
    FillLog log{records.data(), 256, 0};
    run(result.metrics, &log, result.equity.data());
    if (log.count > 256) throw std::runtime_error("a scenario logged more than 256 records");
    records.resize(static_cast<std::size_t>(log.count));
    for (const FillRecord& record : records) (record.reason == kFunding ? result.funding : result.fills).push_back(record);
    return result;
}

}  // namespace btforge::testing
