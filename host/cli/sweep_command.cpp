#include <atomic>
#include <filesystem>
#include <memory>
#include <iostream>
#include <stdexcept>

#include "host/cli/account_options.h"
#include "host/cli/backend_choice.h"
#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/interrupt.h"
#include "host/cli/market_options.h"
#include "host/cli/run_header.h"
#include "host/cli/strategy_options.h"
#include "host/cli/window_options.h"
#include "host/engine/account_config.h"
#include "host/engine/cpu_sweep.h"
#include "host/report/progress_reporter.h"
#include "host/report/ranked_rows.h"
#include "host/report/results_writer.h"

namespace btforge {

namespace po = boost::program_options;

namespace {

// The top rows are kept in memory whole; beyond a million a user wants the
// files, which --all-rows streams (Note [Rows spooled to disk]).
constexpr std::size_t kMaxTopRows = 1'000'000;

}  // namespace

int run_sweep_command(const std::vector<std::string>& args) {
    StrategyChoice strategy_choice;
    AccountChoice account_choice;
    MarketChoice market_choice;
    WindowChoice window_choice;
    std::string rank_by = "sharpe";
    long long top_n = 20;
    std::string output = "btforge-sweep";
    int threads = 0;
    bool all_rows = false;
    BackendChoice backend_choice;
    po::options_description options;
    po::options_description sweep("Sweep");
    sweep.add_options()
        ("rank-by", po::value(&rank_by)->default_value(rank_by), "metric to rank by (any column of SPEC §7)")
        ("top", po::value(&top_n)->default_value(top_n),
         ("rows to keep and print, 1.." + std::to_string(kMaxTopRows) + " (--all-rows writes every row)").c_str())
        ("output,o", po::value(&output)->default_value(output), "results go to OUTPUT.csv and OUTPUT.json")
        ("all-rows", po::bool_switch(&all_rows), "write every combination's row, ranked, not only the top")
        ("threads,j", po::value(&threads)->default_value(threads), "worker threads (0: all hardware threads)");
    options.add(sweep)
        .add(backend_options(backend_choice, "auto|cpu|emu|cuda", "auto"))
        .add(strategy_options(strategy_choice, true))
        .add(account_options(account_choice))
        .add(market_options(market_choice))
        .add(window_options(window_choice));
    if (!parse_command_line(args, "Usage: btforge sweep [options]\nRuns every combination of a grid and ranks them.",
                            options)) {
        return kExitOk;
    }
    const MetricColumn* metric = find_metric_column(rank_by);
    if (metric == nullptr) {
        std::string known;
        for (const MetricColumn& m : metric_columns()) known += (known.empty() ? "" : ", ") + std::string(m.name);
        throw po::error("unknown metric '" + rank_by + "' for --rank-by (one of: " + known + ")");
    }
    if (top_n < 1 || top_n > static_cast<long long>(kMaxTopRows)) {
        throw po::error("--top must be in 1.." + std::to_string(kMaxTopRows) + ", got " + std::to_string(top_n) +
                        (top_n > 0 ? " (--all-rows writes every row to the files)" : ""));
    }
    threads = resolve_threads(threads);
    if (output.empty() || output.back() == '/') {
        throw po::error("--output '" + output + "': expected a file name without extension (results go to " +
                        "OUTPUT.csv and OUTPUT.json)");
    }
    // Note [Outputs checked before work]
    install_interrupt_handler();
    OutputTransaction outputs = open_outputs(
        {{"--output", output + ".csv"}, {"--output", output + ".json"}},
        {{"--data", market_choice.data_file}, {"--instruments", market_choice.instruments_file},
         {"--spec", strategy_choice.spec_file}, {"--grid", strategy_choice.grid_file}},
        &interrupt_requested());

    LoadedStrategy strategy = load_strategy(strategy_choice);
    ResolvedBackend backend = resolve_backend(backend_choice, strategy.spec.name, threads);
    Grid grid = load_grid(strategy_choice, strategy.spec);
    CombinationSpace space(strategy.spec, grid);
    const AccountSpec account = resolve_account(account_choice, strategy.spec, &grid);
    LoadedMarket loaded = load_market(market_choice);
    const Market& market = loaded.market;
    const MarketWindow window = choose_window(market, window_choice);

    std::vector<std::vector<double>> values;
    for (const GridAxis& axis : grid.axes) values.push_back(axis.values);
    SeriesCache series = series_for_backend(backend, strategy.spec, market, values, threads);

    SweepJob job{strategy.binding, &strategy.spec, &space, &market, window, make_account_config(account, market),
                 &series};
    std::uint64_t cells_per_combination =
        static_cast<std::uint64_t>(window.n_bars) * static_cast<std::uint64_t>(market.n_symbols());
    // Note [Run header]
    const RunAssumptions assumptions = describe_assumptions(loaded, window, account);
    std::cerr << "btforge sweep: strategy " << strategy.spec.name << ", " << space.count() << " combinations of "
              << grid.origin << "\n"
              << format_assumptions(assumptions) << "  series:     " << describe_series(series, threads) << "\n";

    std::atomic<std::uint64_t> completed{0};
    SweepOptions sweep_options;
    sweep_options.threads = threads;
    sweep_options.rank_metric = metric;
    sweep_options.top_n = static_cast<std::size_t>(top_n);
    sweep_options.keep_all_rows = false;
    // Note [Rows spooled to disk]
    std::unique_ptr<RowSpool> spool;
    if (all_rows) {
        spool = std::make_unique<RowSpool>(std::filesystem::absolute(output + ".csv").parent_path(), space.count(),
                                           *metric);
        sweep_options.row_sink = [&spool](std::uint64_t first, std::span<const ResultRow> rows) {
            spool->store(first, rows);
        };
    }
    sweep_options.completed = &completed;
    sweep_options.cancel = &interrupt_requested();
    SweepOutcome outcome;
    {
        ProgressReporter progress("sweep", space.count(), completed, static_cast<double>(cells_per_combination));
        outcome = backend.run(job, sweep_options);
    }
    if (outcome.cancelled) {
        std::cerr << "btforge sweep: interrupted after " << completed.load() << " of " << space.count()
                  << " combinations; no result file written\n";
        return kExitInterrupted;
    }

    std::string backend_description = backend.description;
    if (!outcome.thread_shortfall.empty()) {
        // Note [Threads that cannot start]
        std::cerr << "btforge sweep: started " << outcome.threads << " of " << threads
                  << " worker threads (the system refused more: " << outcome.thread_shortfall
                  << "); the results are the same, only slower\n";
        backend_description += "; " + std::to_string(outcome.threads) + " of " + thread_count_text(threads) + " started";
    }

    RunSummary summary;
    summary.strategy = strategy.spec.name;
    summary.spec_origin = strategy.spec.origin;
    summary.grid_origin = grid.origin;
    summary.market = assumptions.market;
    summary.timestamps = assumptions.timestamps;
    summary.window = window_facts(market, window);
    summary.funding = assumptions.funding;
    summary.backend = backend_description;
    summary.combinations = outcome.combinations;
    summary.invalid_rows = outcome.invalid_rows;
    summary.cells = outcome.combinations * cells_per_combination;
    summary.seconds = outcome.seconds;
    summary.rank_by = rank_by;
    summary.account = account;
    const RowsInMemory top_rows(outcome.top);
    if (spool) spool->rank();
    const RankedRows& written = spool ? static_cast<const RankedRows&>(*spool) : top_rows;
    write_results_csv(outputs.stream(0), strategy.spec, space, written);
    write_results_json(outputs.stream(1), summary, strategy.spec, space, written);
    outputs.commit();  // Note [Outputs committed together]

    std::cout << format_ranked_table(strategy.spec, space, outcome.top, *metric, static_cast<std::size_t>(top_n));
    std::cout << "\nbackend: " << summary.backend << "; " << summary.combinations << " combinations x "
              << market.n_symbols() << " symbols x " << window.n_bars << " bars in " << outcome.seconds << " s = "
              << (outcome.seconds > 0 ? static_cast<double>(summary.cells) / outcome.seconds : 0.0) << " cells/s\n";
    if (summary.invalid_rows != 0) {
        // Note [Rows with non-finite metrics]
        std::cout << summary.invalid_rows << " of " << summary.combinations
                  << " combinations have non-finite metrics (NaN or infinite: their numbers are not results); "
                     "they rank last and are marked valid=false\n";
    }
    std::cout << "results (" << written.size() << " rows ranked by " << rank_by << "): " << output << ".csv, "
              << output << ".json\n";
    if (!outcome.top.empty()) {
        std::cout << "replay the best: btforge replay" << strategy_arguments(strategy_choice)
                  << account_arguments(account_choice) << window_arguments(window_choice) << " --combination " << outcome.top.front().combination_id
                  << " [same market options]\n";
    }
    return kExitOk;
}

}  // namespace btforge
