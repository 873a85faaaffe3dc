#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/strategy_options.h"
#include "host/data/synthetic_market.h"
#include "host/engine/account_config.h"
#include "host/engine/cpu_sweep.h"

namespace btforge {

namespace po = boost::program_options;

namespace {

std::string cpu_model() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    }
    return "unknown CPU";
}

bool same_rows(const std::vector<ResultRow>& a, const std::vector<ResultRow>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].combination_id != b[i].combination_id ||
            std::memcmp(&a[i].metrics, &b[i].metrics, sizeof(Metrics)) != 0) {
            return false;
        }
    }
    return true;
}

}  // namespace

int run_bench_command(const std::vector<std::string>& args) {
    StrategyChoice strategy_choice;
    SyntheticMarketOptions market_options;
    market_options.n_bars = 100'000;
    market_options.n_symbols = 4;
    std::string grid_file;
    std::uint64_t max_combinations = 0;
    int threads = 0;
    po::options_description options("Benchmark (SPEC §10: cells/s = bars x symbols x combinations per second)");
    options.add_options()
        ("strategy", po::value(&strategy_choice.strategy)->default_value(strategy_choice.strategy), "strategy")
        ("grid", po::value(&grid_file)->value_name("JSON"),
         "grid (default: the embedded spec/grids/<strategy>_bench.json, else its quickstart grid)")
        ("bars", po::value(&market_options.n_bars)->default_value(market_options.n_bars), "synthetic bars")
        ("symbols", po::value(&market_options.n_symbols)->default_value(market_options.n_symbols), "synthetic symbols")
        ("seed", po::value(&market_options.seed)->default_value(market_options.seed), "synthetic seed")
        ("max-combinations", po::value(&max_combinations)->default_value(0),
         "run only the first N combinations of the grid (0: all)")
        ("threads,j", po::value(&threads)->default_value(0), "threads of the parallel run (0: all hardware threads)");
    if (!parse_command_line(args,
                            "Usage: btforge bench [options]\n"
                            "Times the CPU reference sweep on a fixed synthetic workload, on 1 thread and on all.",
                            options)) {
        return kExitOk;
    }
    threads = resolve_threads(threads);
    strategy_choice.grid_file = grid_file;
    LoadedStrategy strategy = load_strategy(strategy_choice);
    Grid grid = load_grid(strategy_choice, strategy.spec, "bench");
    CombinationSpace space(strategy.spec, grid);
    Market market = make_synthetic_market(market_options);
    std::vector<std::vector<double>> values;
    for (const GridAxis& axis : grid.axes) values.push_back(axis.values);
    SeriesCache series = SeriesCache::build(strategy.spec, market, values, threads);
    SweepJob job{strategy.binding, &strategy.spec, &space, &market, market.view(),
                 make_account_config(strategy.spec.account, market), &series};

    std::uint64_t combinations = max_combinations == 0 ? space.count() : std::min(space.count(), max_combinations);
    double cells = static_cast<double>(combinations) * market.n_bars() * market.n_symbols();
    std::cout << "btforge bench: strategy " << strategy.spec.name << ", grid " << grid.origin << "\n"
              << "workload: " << market.n_symbols() << " symbols x " << market.n_bars() << " bars x " << combinations
              << " combinations = " << cells << " cells\n"
              << "machine: " << cpu_model() << ", " << resolve_threads(0) << " hardware threads\n"
              << "indicator series: " << series.distinct_series() << " built in " << series.build_seconds()
              << " s on " << threads << " threads (not in the sweep times)\n";
    std::vector<int> thread_counts = {1};
    if (threads > 1) thread_counts.push_back(threads);
    std::vector<ResultRow> first_top;
    for (int n : thread_counts) {
        SweepOptions sweep;
        sweep.threads = n;
        sweep.rank_metric = find_metric_column("sharpe");
        sweep.top_n = 10;
        sweep.max_combinations = combinations;
        SweepOutcome outcome = run_cpu_sweep(job, sweep);
        std::ostringstream line;
        line << "cpu " << n << (n == 1 ? " thread:  " : " threads: ") << outcome.seconds << " s, "
             << cells / outcome.seconds << " cells/s";
        if (n != 1) line << (same_rows(first_top, outcome.top) ? " (top 10 bit-identical to 1 thread)"
                                                                : " (TOP 10 DIFFERS FROM 1 THREAD)");
        std::cout << line.str() << std::endl;
        if (n == 1) first_top = outcome.top;
        else if (!same_rows(first_top, outcome.top)) return kExitFailure;
    }
    return kExitOk;
}

}  // namespace btforge
