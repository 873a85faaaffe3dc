#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "host/app/mpi_sweep.h"
#include "host/app/sweep_run.h"
#include "host/app/sweep_to_files.h"
#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/interrupt.h"
#include "host/cli/merge_report.h"
#include "host/cli/option_groups.h"

namespace btforge {

namespace po = boost::program_options;

int run_sweep_command(const std::vector<std::string>& args) {
    SweepRequest request;
    std::string output = "btforge-sweep";
    std::string returns_text;  // --returns M or daily
    po::options_description options;
    po::options_description sweep("Sweep");
    sweep.add_options()
        ("rank-by", po::value(&request.rank_by)->default_value(request.rank_by),
         "metric to rank by: any column of SPEC §7, or dsr (the deflated Sharpe ratio against every combination "
         "of the sweep, from the period statistics; the kept rows are replayed on the CPU for their metrics)")
        ("min-trades", po::value(&request.min_trades)->default_value(request.min_trades)->value_name("N"),
         "rows with fewer than N round trips are marked (enough_trades=false) and ranked after the others, "
         "before rows with non-finite metrics; 0: no minimum (Note [Rows with few trades])")
        ("top", po::value(&request.top_n)->default_value(request.top_n),
         ("rows to keep and print, 1.." + std::to_string(kMaxTopRows) + " (--all-rows writes every row)").c_str())
        ("output,o", po::value(&output)->default_value(output), "results go to OUTPUT.csv and OUTPUT.json")
        ("all-rows", po::bool_switch(&request.all_rows), "write every combination's row, ranked, not only the top")
        ("intrabar-bounds", po::bool_switch(&request.intrabar_bounds),
         "replay each kept row with every bar the strategy walks taken as its favourable extreme first and as "
         "its adverse extreme first (a long: open, high, low, close and open, low, high, close) and write its "
         "metrics under both orders beside our rule's to OUTPUT.bounds.csv (Note [Bounds of the order inside a bar]; the default strategy, a "
         "market without --intrabar, --top at most 1000)")
        ("threads,j", po::value(&request.threads)->default_value(request.threads), "worker threads (0: every CPU this process may run on)");
    po::options_description validation_options("Validation (out-of-sample evidence, docs/VALIDATION.md)");
    validation_options.add_options()
        ("periods", po::value(&request.periods)->value_name("S"),
         "cut the window into S periods of equal bars (1..16) and keep every combination's statistics per period "
         "(default: 16 with --pbo, --walk-forward or --cpcv, else none); also reports the deflated Sharpe ratio of "
         "the top rows")
        ("pbo", po::bool_switch(&request.pbo),
         "probability of backtest overfitting over every combination (CSCV, all C(S, S/2) splits; S even)")
        ("pbo-backend", po::value(&request.pbo_backend)->default_value(request.pbo_backend)->value_name("auto|cpu|cuda"),
         "where the CSCV and the SPA's bootstrap run: auto is the GPU of a cuda sweep (the same numbers, bit for "
         "bit), else every core")
        ("walk-forward", po::value(&request.walk_forward)->value_name("PLAN"),
         "anchored[:K] or rolling:K: pick the best combination in K periods (by --rank-by: sharpe, sortino or "
         "total_return), trade the next period, repeat; writes OUTPUT.walkforward.csv")
        ("cpcv", po::value(&request.cpcv)->implicit_value("2:1")->value_name("K[:E]"),
         "combinatorial purged cross-validation: every way to test K of the S periods (default 2), the rest "
         "in-sample less E periods on each side of a tested block (default 1); the spread of the selected "
         "combination's out-of-sample Sharpe ratio over its paths")
        ("spa", po::value(&request.spa)->implicit_value("1000")->value_name("B[:L]"),
         "White's Reality Check, Hansen's SPA and Romano-Wolf's StepM over every combination's return stream "
         "against holding cash: B stationary-bootstrap resamples (default 1000) of mean block length L (default "
         "the square root of --returns)")
        ("returns", po::value(&returns_text)->value_name("M|daily"),
         "keep each combination's returns over M equal parts of the window (default with --spa: 256, or the "
         "window's bars when fewer), or over its UTC days (daily): the trials are clustered by them (ONC) for "
         "the effective number of trials and the clustered DSR, and --spa resamples them")
        ("spa-seed", whole_number_value(&request.spa_seed),
         "seed of --spa's resamples and of the clusters' sample (default 0)")
        ("spa-size", po::value(&request.spa_size)->default_value(request.spa_size)->value_name("ALPHA"),
         "StepM's family-wise error rate")
        ("spa-benchmark", po::value(&request.spa_benchmark)->default_value(request.spa_benchmark)->value_name("cash|hold"),
         "what --spa tests against: cash, or buying and holding every symbol of the market in equal shares from "
         "the window's first bar, without costs")
        ("shard", po::value(&request.shard)->value_name("i/N"),
         "run the i-th of N contiguous parts of the combinations (0 <= i < N) and write OUTPUT.shard for "
         "btforge merge (Note [Shards])");
    MpiSweepOptions mpi;
    po::options_description distributed("MPI (mpirun -n R btforge sweep --mpi ...; docs/SCALING.md)");
    distributed.add_options()
        ("mpi", po::bool_switch(&mpi.enabled),
         "run as one rank of an MPI job: the ranks share the run and rank 0 writes the one result set "
         "(Note [Sweeps over MPI]); each rank uses its node's cores (--threads 0: shared among the node's ranks) "
         "or one GPU of its node")
        ("mpi-shards", po::value(&mpi.shards)->value_name("N"),
         "cut the run into N shards (at least the ranks; default one per rank): more shards, less work lost "
         "when a rank dies")
        ("checkpoint", po::value(&mpi.checkpoint)->value_name("DIR"),
         "write each completed shard to DIR and take the shards found there instead of running them: the same "
         "command resumes a run that died (Note [Resuming an MPI run])");
    options.add(sweep)
        .add(validation_options)
        .add(distributed)
        .add(backend_options(request.backend, "auto|cpu|emu|cuda", "auto"))
        .add(strategy_options(request.strategy, true))
        .add(account_options(request.account))
        .add(market_options(request.market))
        .add(window_options(request.window));
    po::variables_map given;
    if (!parse_command_line(args, "Usage: btforge sweep [options]\nRuns every combination of a grid and ranks them.",
                            options, &given)) {
        return kExitOk;
    }
    // Note [Equity marks at UTC days]: --returns M or daily.
    if (given.count("returns") != 0) {
        const std::optional<int> parts =
            number_or_word("returns", returns_text, "daily", "a whole number of parts M or daily");
        request.daily_returns = !parts.has_value();
        if (parts) request.returns = *parts;
    }
    if (mpi.enabled) {
        const bool device_chosen = (given.count("device") != 0 && !given["device"].defaulted()) || given.count("devices") != 0;
        MpiFrontEnd front;
        front.mpi_started = &install_interrupt_handler;
        front.cancel = &interrupt_requested();
        front.notice = [](const std::string& line) { std::cerr << "btforge sweep --mpi: " << line << "\n"; };
        front.header = [](const std::string& header) { std::cerr << header; };
        const MpiSweepResult result = run_mpi_sweep(std::move(request), output, mpi, device_chosen, front);
        if (!result.rank0) return kExitOk;  // Note [Rank 0 speaks for the job]
        if (!result.merged) return kExitInterrupted;  // said by run_mpi_sweep
        const int code = report_merged(*result.merged, output, "btforge sweep --mpi");
        if (code == kExitOk && result.resumed != 0) {
            std::cout << "resumed " << result.resumed << " of " << result.shards << " shards from " << mpi.checkpoint
                      << " (Note [Resuming an MPI run])\n";
        }
        return code;
    }
    if (given.count("mpi-shards") != 0 || given.count("checkpoint") != 0) {
        throw po::error(std::string(given.count("checkpoint") != 0 ? "--checkpoint" : "--mpi-shards") +
                        " belongs to an MPI run: add --mpi (and start it with mpirun)");
    }
    const CheckedSweepRequest checked = check_sweep_request(std::move(request));
    const SweepRequest& r = checked.request;
    install_interrupt_handler();
    SweepHooks hooks;
    hooks.header = [](const std::string& header) { std::cerr << header; };
    hooks.cancel = &interrupt_requested();
    hooks.progress_on_stderr = true;
    hooks.notice = &say_backend_notice;
    // Note [A sweep and its files]
    const std::unique_ptr<SweepRun> run = run_sweep_to_files(checked, output, hooks);
    if (run->cancelled) {
        std::cerr << "btforge sweep: interrupted " << run->cancelled_while << "; no result file written\n";
        return kExitInterrupted;
    }
    const SweepOutcome& outcome = run->outcome;
    if (!outcome.thread_shortfall.empty()) {
        // Note [Threads that cannot start]
        std::cerr << "btforge sweep: started " << outcome.threads << " of " << r.threads
                  << " worker threads (the system refused more: " << outcome.thread_shortfall
                  << "); the results are the same, only slower\n";
    }
    const StrategySpec& spec = run->strategy.spec;
    const CombinationSpace& space = *run->space;
    const Market& market = run->market->market;
    if (checked.shard) {
        std::cout << "shard " << checked.shard->index << "/" << checked.shard->count << ": combinations "
                  << run->first_ordinal << ".." << run->end_ordinal << " of " << space.count() << " on "
                  << run->summary.backend << " in " << outcome.seconds << " s -> " << output
                  << ".shard (btforge merge puts the shards together)\n";
        return kExitOk;
    }
    const std::optional<SweepValidation>& validation = run->validation;
    const RunSummary& summary = run->summary;
    const RankedRows& written = run->ranked();

    std::cout << format_ranked_table(spec, space, outcome.top, *run->outcomes, checked.rank_order(),
                                     static_cast<std::size_t>(r.top_n));
    std::cout << "\nbackend: " << summary.backend << "; " << summary.combinations << " combinations x "
              << market.n_symbols() << " symbols x " << run->window.n_bars << " bars in " << outcome.seconds << " s = "
              << (outcome.seconds > 0 ? static_cast<double>(summary.cells) / outcome.seconds : 0.0) << " cells/s\n";
    if (summary.invalid_rows != 0) {
        // Note [Rows with non-finite metrics]
        std::cout << summary.invalid_rows << " of " << summary.combinations
                  << " combinations have non-finite metrics (NaN or infinite: their numbers are not results); "
                     "they rank last and are marked valid=false\n";
    }
    if (validation) {
        std::cout << format_validation(*validation, spec, space, run->spans, run->bars_per_year);
    }
    if (!run->order_bounds.empty()) std::cout << format_order_bounds(run->order_bounds, *checked.metric);
    std::cout << describe_result_files(output, checked, written.size());
    if (!outcome.top.empty()) {
        // Note [Replaying a row from its results]: a complete command.
        std::cout << "replay the best: btforge replay --from-results " << output << ".json --combination "
                  << outcome.top.front().combination_id << "\n";
    }
    if (summary.synthetic_market) std::cout << kSyntheticMarketNote << "\n";  // Note [Synthetic market said plainly]
    return kExitOk;
}

}  // namespace btforge
