#pragma once

// A small sweep for the engine and backend tests: everything a SweepJob
// points to, owned in one place, over a 3-symbol synthetic market.
#include <string>
#include <vector>

#include "host/data/synthetic_market.h"
#include "host/engine/account_config.h"
#include "host/engine/cpu_sweep.h"
#include "host/engine/indicator_signatures.h"
#include "spec/embedded_specs.h"

namespace btforge::testing {

inline StrategySpec embedded_spec(const std::string& file) {
    return parse_strategy_spec(*embedded_spec_file(file), file, indicator_signatures());
}

struct SmallSweep {
    StrategySpec spec;
    Grid grid;
    CombinationSpace space;
    Market market;
    SeriesCache series;
    SweepJob job;

    SmallSweep(const std::string& spec_file, const std::string& grid_json)
        : spec(embedded_spec(spec_file)),
          grid(parse_grid(grid_json, "test grid", spec)),
          space(spec, grid),
          market(make_synthetic_market(SyntheticMarketOptions{7, 3, 2500, 3'600'000, 1'704'067'200'000,
                                                              kDefaultFundingIntervalMs})),
          series(SeriesCache::build(spec, market, values(grid), 2)),
          job{&bind_strategy(spec), &spec, &space, &market, whole_market(market),
              make_account_config(spec.account, market), &series} {}

    static std::vector<std::vector<double>> values(const Grid& grid) {
        std::vector<std::vector<double>> v;
        for (const GridAxis& axis : grid.axes) v.push_back(axis.values);
        return v;
    }
    SweepOutcome run(int threads) const {
        SweepOptions options;
        options.threads = threads;
        options.rank_metric = find_metric_column("total_return");
        options.top_n = 10;
        options.keep_all_rows = true;
        return run_cpu_sweep(job, options);
    }
};

}  // namespace btforge::testing
