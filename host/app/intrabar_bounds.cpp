#include "host/app/intrabar_bounds.h"

#include <string>
#include <vector>

#include "host/app/usage_error.h"
#include "host/engine/series_cache.h"
#include "host/engine/worker_threads.h"

namespace btforge {

void check_bar_legs_apply(const StrategyBinding& binding, const std::string& strategy, const Market& market,
                          const std::string& option) {
    if (!binding.reads_finer_bars) {
        // The strategies that can, from the bindings the generator derives (none is named here by hand).
        std::string walking;
        for (const StrategyBinding& other : strategy_bindings()) {
            if (other.reads_finer_bars) walking += (walking.empty() ? "" : ", ") + std::string(other.name);
        }
        throw UsageError(option + ": strategy '" + strategy + "' settles no bar on a path inside it (docs/"
                         "ACCOUNTING.md §9), so the order inside its bars cannot be bounded so; these can: " +
                         walking);
    }
    if (market.finer.per_bar > 0) {
        throw UsageError(option + " takes the order inside bars without a path; this market has finer bars "
                         "(--intrabar), which settle it: give one or the other");
    }
    if (!market.mark.open.empty()) {
        throw UsageError(option + " walks the legs of the last price, and the mark price has none (Note [Mark "
                         "price]): give it without --mark");
    }
}

int bar_legs_of_order(const std::string& order) {
    if (order == "rule") return 0;
    if (order == "favourable-first") return 1;
    if (order == "adverse-first") return -1;
    throw UsageError("--intrabar-order must be rule, favourable-first or adverse-first, got '" + order + "'");
}

std::vector<OrderBounds> replay_order_bounds(const SweepJob& job, const StrategySpec& spec,
                                             const CombinationSpace& space, std::span<const ResultRow> rows,
                                             int threads, const std::atomic<bool>* cancel) {
    std::vector<OrderBounds> bounds(rows.size());
    // One row per tile: each writes its own entry, so the result is that of any thread count.
    run_tiles(threads, rows.size(), 1, [&](std::uint64_t r, std::uint64_t, std::uint64_t) {
        if (cancel != nullptr && cancel->load()) return;
        const ResultRow& row = rows[r];
        std::vector<double> values(spec.parameters.size());
        space.decode(row.combination_id, values);
        // The row's own series, as --rank-by dsr's replays build them.
        std::vector<std::vector<double>> single;
        for (double v : values) single.push_back({v});
        const SeriesCache own = SeriesCache::build(spec, *job.market, single, 1);
        SweepJob replay = job;
        replay.series = &own;
        replay.account.n_periods = 0;
        OrderBounds& b = bounds[r];
        b.combination_id = row.combination_id;
        b.rule = row.metrics;
        replay.bar_legs = 1;
        b.favourable_first = run_combination(replay, values, nullptr, nullptr);
        replay.bar_legs = -1;
        b.adverse_first = run_combination(replay, values, nullptr, nullptr);
    });
    return bounds;
}

}  // namespace btforge
