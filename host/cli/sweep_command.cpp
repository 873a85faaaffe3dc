#include <atomic>
#include <filesystem>
#include <algorithm>
#include <memory>
#include <optional>
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
#include "host/data/timestamp_parse.h"
#include "host/engine/cpu_sweep.h"
#include "host/report/progress_reporter.h"
#include "host/report/ranked_rows.h"
#include "host/report/results_writer.h"
#include "host/report/validation_writer.h"
#include "host/validation/sweep_validation.h"

namespace btforge {

namespace po = boost::program_options;

namespace {

// The top rows are kept in memory whole; beyond a million a user wants the
// files, which --all-rows streams (Note [Rows spooled to disk]).
constexpr std::size_t kMaxTopRows = 1'000'000;
// --rank-by dsr replays each kept row on the CPU for its metrics.
constexpr std::size_t kMaxDeflatedTopRows = 1'000;

// Where each of `ids` ran (its ordinal, the index of its period statistics):
// the id itself in a full sweep; a random one is searched (Note [Random
// combinations without materializing]).
std::vector<SweepRowRef> rows_of(const CombinationSpace& space, const std::vector<std::uint64_t>& ids) {
    std::vector<SweepRowRef> rows;
    for (std::uint64_t id : ids) rows.push_back({id, id});
    if (!space.is_random()) return rows;
    for (SweepRowRef& row : rows) row.ordinal = space.count();
    std::size_t found = 0;
    for (std::uint64_t ordinal = 0; ordinal < space.count() && found < rows.size(); ++ordinal) {
        const std::uint64_t id = space.combination_id(ordinal);
        for (SweepRowRef& row : rows) {
            if (row.combination_id == id && row.ordinal == space.count()) {
                row.ordinal = ordinal;
                ++found;
            }
        }
    }
    return rows;
}

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
    int periods = -1;  // -1: 16 when --pbo or --walk-forward asks, else 0
    bool pbo = false;
    std::string pbo_backend = "auto";
    std::string walk_forward_text;
    BackendChoice backend_choice;
    po::options_description options;
    po::options_description sweep("Sweep");
    sweep.add_options()
        ("rank-by", po::value(&rank_by)->default_value(rank_by),
         "metric to rank by: any column of SPEC §7, or dsr (the deflated Sharpe ratio against every combination "
         "of the sweep, from the period statistics; the kept rows are replayed on the CPU for their metrics)")
        ("top", po::value(&top_n)->default_value(top_n),
         ("rows to keep and print, 1.." + std::to_string(kMaxTopRows) + " (--all-rows writes every row)").c_str())
        ("output,o", po::value(&output)->default_value(output), "results go to OUTPUT.csv and OUTPUT.json")
        ("all-rows", po::bool_switch(&all_rows), "write every combination's row, ranked, not only the top")
        ("threads,j", po::value(&threads)->default_value(threads), "worker threads (0: all hardware threads)");
    po::options_description validation_options("Validation (out-of-sample evidence, docs/VALIDATION.md)");
    validation_options.add_options()
        ("periods", po::value(&periods)->value_name("S"),
         "cut the window into S periods of equal bars (1..16) and keep every combination's statistics per period "
         "(default: 16 with --pbo or --walk-forward, else none); also reports the deflated Sharpe ratio of the top "
         "rows")
        ("pbo", po::bool_switch(&pbo),
         "probability of backtest overfitting over every combination (CSCV, all C(S, S/2) splits; S even)")
        ("pbo-backend", po::value(&pbo_backend)->default_value(pbo_backend)->value_name("auto|cpu|cuda"),
         "where the CSCV runs: auto is the GPU of a cuda sweep (the same numbers, bit for bit), else every core")
        ("walk-forward", po::value(&walk_forward_text)->value_name("PLAN"),
         "anchored[:K] or rolling:K: pick the best combination in K periods (by --rank-by: sharpe, sortino or "
         "total_return), trade the next period, repeat; writes OUTPUT.walkforward.csv");
    options.add(sweep)
        .add(validation_options)
        .add(backend_options(backend_choice, "auto|cpu|emu|cuda", "auto"))
        .add(strategy_options(strategy_choice, true))
        .add(account_options(account_choice))
        .add(market_options(market_choice))
        .add(window_options(window_choice));
    if (!parse_command_line(args, "Usage: btforge sweep [options]\nRuns every combination of a grid and ranks them.",
                            options)) {
        return kExitOk;
    }
    // Note [Validation of a sweep]: dsr ranks after the sweep; the sweep
    // itself keeps its sharpe order, which is also what the table shows.
    const bool rank_by_dsr = rank_by == "dsr";
    const MetricColumn* metric = find_metric_column(rank_by_dsr ? "sharpe" : rank_by);
    if (metric == nullptr) {
        std::string known;
        for (const MetricColumn& m : metric_columns()) known += (known.empty() ? "" : ", ") + std::string(m.name);
        throw po::error("unknown metric '" + rank_by + "' for --rank-by (one of: " + known + ", dsr)");
    }
    if (top_n < 1 || top_n > static_cast<long long>(kMaxTopRows)) {
        throw po::error("--top must be in 1.." + std::to_string(kMaxTopRows) + ", got " + std::to_string(top_n) +
                        (top_n > 0 ? " (--all-rows writes every row to the files)" : ""));
    }
    threads = resolve_threads(threads);
    // Note [Validation of a sweep]
    std::optional<WalkForwardPlan> walk_forward_plan;
    std::optional<WalkForwardScore> walk_forward_metric;
    if (!walk_forward_text.empty()) {
        std::string why;
        walk_forward_plan = parse_walk_forward(walk_forward_text, &why);
        if (!walk_forward_plan) throw po::error("--walk-forward: " + why);
        walk_forward_metric = walk_forward_score(rank_by);
        if (!walk_forward_metric) {
            throw po::error("--walk-forward ranks each in-sample window by --rank-by computed from the period sums: "
                            "sharpe, sortino or total_return (got " + rank_by + ")");
        }
    }
    if (rank_by_dsr) {
        if (periods == 0) throw po::error("--rank-by dsr needs the period statistics: --periods must be 1..16, got 0");
        if (all_rows) throw po::error("--rank-by dsr ranks the kept rows after the sweep; --all-rows cannot be ranked so");
        if (static_cast<std::size_t>(top_n) > kMaxDeflatedTopRows) {
            throw po::error("--rank-by dsr replays each kept row on the CPU: --top at most " +
                            std::to_string(kMaxDeflatedTopRows) + ", got " + std::to_string(top_n));
        }
    }
    if (periods < 0) periods = pbo || walk_forward_plan || rank_by_dsr ? kMaxPeriods : 0;
    if (periods > kMaxPeriods) {
        throw po::error("--periods must be in 1.." + std::to_string(kMaxPeriods) + ", got " + std::to_string(periods));
    }
    if (pbo && (periods < 2 || periods % 2 != 0)) {
        throw po::error("--pbo splits the periods in halves: --periods must be even and at least 2, got " +
                        std::to_string(periods));
    }
    if (pbo_backend != "auto" && pbo_backend != "cpu" && pbo_backend != "cuda") {
        throw po::error("--pbo-backend must be auto, cpu or cuda, got '" + pbo_backend + "'");
    }
    if (walk_forward_plan && walk_forward_plan->in_sample_periods >= periods) {
        throw po::error("--walk-forward " + walk_forward_text + " needs more than " +
                        std::to_string(walk_forward_plan->in_sample_periods) + " periods (--periods " +
                        std::to_string(periods) + "): one at least must be out of sample");
    }
    if (output.empty() || output.back() == '/') {
        throw po::error("--output '" + output + "': expected a file name without extension (results go to " +
                        "OUTPUT.csv and OUTPUT.json)");
    }
    // Note [Outputs checked before work]
    install_interrupt_handler();
    std::vector<NamedFile> output_files = {{"--output", output + ".csv"}, {"--output", output + ".json"}};
    const std::size_t validation_file = output_files.size();
    if (periods > 0) output_files.push_back({"--output", output + ".validation.json"});
    const std::size_t walk_forward_file = output_files.size();
    if (walk_forward_plan) output_files.push_back({"--output", output + ".walkforward.csv"});
    OutputTransaction outputs = open_outputs(
        output_files,
        {{"--data", market_choice.data_file}, {"--funding-file", market_choice.funding_file}, {"--instruments", market_choice.instruments_file},
         {"--spec", strategy_choice.spec_file}, {"--grid", strategy_choice.grid_file}},
        &interrupt_requested());

    LoadedStrategy strategy = load_strategy(strategy_choice);
    ResolvedBackend backend = resolve_backend(backend_choice, strategy.spec.name, threads);
    if (pbo && pbo_backend == "cuda" && !backend.overfitting) {
        throw po::error("--pbo-backend cuda runs the CSCV on the GPU of a cuda sweep: " +
                        (backend.name != "cuda" ? "this sweep runs on " + backend.name
                                                : std::string("this btforge was built without nvcc")));
    }
    Grid grid = load_grid(strategy_choice, strategy.spec);
    CombinationSpace space(strategy.spec, grid);
    const AccountSpec account = resolve_account(account_choice, strategy.spec, &grid);
    LoadedMarket loaded = load_market(market_choice);
    const Market& market = loaded.market;
    const MarketWindow window = choose_window(market, window_choice);
    if (window.n_bars < periods) {
        throw po::error("--periods " + std::to_string(periods) + " needs at least that many bars; the window has " +
                        std::to_string(window.n_bars));
    }

    std::vector<std::vector<double>> values;
    for (const GridAxis& axis : grid.axes) values.push_back(axis.values);
    SeriesCache series = series_for_backend(backend, strategy.spec, market, values, threads);

    SweepJob job{strategy.binding, &strategy.spec, &space, &market, window, make_account_config(account, market),
                 &series};
    job.account.n_periods = periods;
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

    std::string backend_description = describe_run(backend.description, outcome);
    if (!outcome.thread_shortfall.empty()) {
        // Note [Threads that cannot start]
        std::cerr << "btforge sweep: started " << outcome.threads << " of " << threads
                  << " worker threads (the system refused more: " << outcome.thread_shortfall
                  << "); the results are the same, only slower\n";
        backend_description += "; " + std::to_string(outcome.threads) + " of " + thread_count_text(threads) + " started";
    }

    // Note [Validation of a sweep]
    std::optional<SweepValidation> validation;
    PeriodSpans spans;
    if (periods > 0) {
        for (int p = 0; p < periods; ++p) {
            const auto first = static_cast<std::size_t>(window.first_bar + period_first_bar(p, window.n_bars, periods));
            const auto last = static_cast<std::size_t>(window.first_bar + period_first_bar(p + 1, window.n_bars, periods)) - 1;
            spans.emplace_back(format_timestamp_iso(market.timestamp_ms.at(first)),
                               format_timestamp_iso(market.timestamp_ms.at(last)));
        }
        ValidationRequest request;
        request.n_periods = periods;
        request.pbo = pbo;
        request.walk_forward = walk_forward_plan;
        if (walk_forward_metric) request.score = *walk_forward_metric;
        if (rank_by_dsr) {
            // The rows of highest deflated Sharpe ratio, their metrics from
            // the CPU reference (the same bits as the sweep's rows: parity).
            const std::vector<SweepRowRef> ranked = rank_by_deflated_sharpe(
                outcome.periods, periods, static_cast<std::size_t>(top_n),
                [&space](std::uint64_t ordinal) { return space.combination_id(ordinal); });
            outcome.top.clear();
            for (const SweepRowRef& row : ranked) {
                std::vector<double> row_values(strategy.spec.parameters.size());
                space.decode(row.combination_id, row_values);
                std::vector<std::vector<double>> single;
                for (double v : row_values) single.push_back({v});
                const SeriesCache own = SeriesCache::build(strategy.spec, market, single, 1);
                SweepJob replay = job;
                replay.series = &own;
                replay.account.n_periods = 0;
                outcome.top.push_back(ResultRow{row.combination_id, run_combination(replay, row_values, nullptr, nullptr)});
            }
            request.top_rows = ranked;
        } else {
            std::vector<std::uint64_t> ids;
            for (std::size_t i = 0; i < std::min<std::size_t>(outcome.top.size(), 10); ++i) {
                ids.push_back(outcome.top[i].combination_id);
            }
            request.top_rows = rows_of(space, ids);
        }
        if (request.top_rows.size() > 10) request.top_rows.resize(10);
        std::atomic<std::uint64_t> scanned{0};
        request.pbo_options.threads = threads;
        request.pbo_options.scanned = &scanned;
        request.pbo_options.cancel = &interrupt_requested();
        if (pbo_backend != "cpu") request.overfitting = backend.overfitting;
        {
            std::unique_ptr<ProgressReporter> progress;
            if (pbo) progress = std::make_unique<ProgressReporter>("pbo scans", cscv_scan_total(outcome.combinations),
                                                                   scanned, 0.0);
            validation = validate_sweep(outcome.periods, request);
        }
        if (validation->pbo && validation->pbo->cancelled) {
            std::cerr << "btforge sweep: interrupted while computing the probability of backtest overfitting; no "
                         "result file written\n";
            return kExitInterrupted;
        }
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
    if (validation) {
        write_validation_json(outputs.stream(validation_file), *validation, strategy.spec, space, spans,
                              job.account.bars_per_year);
        if (validation->walk_forward) {
            write_walk_forward_csv(outputs.stream(walk_forward_file), *validation->walk_forward, strategy.spec, space,
                                   spans, job.account.bars_per_year);
        }
    }
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
    if (validation) {
        std::cout << format_validation(*validation, strategy.spec, space, spans, job.account.bars_per_year);
    }
    std::cout << "results (" << written.size() << " rows ranked by " << rank_by << "): " << output << ".csv, "
              << output << ".json" << (validation ? ", " + output + ".validation.json" : std::string())
              << (validation && validation->walk_forward ? ", " + output + ".walkforward.csv" : std::string())
              << "\n";
    if (!outcome.top.empty()) {
        std::cout << "replay the best: btforge replay" << strategy_arguments(strategy_choice)
                  << account_arguments(account_choice) << window_arguments(window_choice) << " --combination " << outcome.top.front().combination_id
                  << " [same market options]\n";
    }
    return kExitOk;
}

}  // namespace btforge
