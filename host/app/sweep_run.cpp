#include "host/app/sweep_run.h"

#include <algorithm>
#include <charconv>

#include "host/app/intrabar_bounds.h"
#include "host/app/output_files.h"
#include "host/app/run_identity.h"
#include "host/app/run_inputs.h"
#include "host/app/thread_count.h"
#include "host/app/usage_error.h"
#include "host/data/buy_and_hold.h"
#include "host/data/equity_mark_bars.h"
#include "host/data/timestamp_parse.h"
#include "host/engine/account_config.h"
#include "host/io/sha256.h"
#include "host/report/progress_reporter.h"
#include "host/spec/account_settings.h"
#include "host/validation/return_streams.h"

namespace btforge {

namespace {

// Note [Shards]: what two shards must share to be parts of one run. Hashes
// of the contents (the spec document, the grid's axes and sampling, every
// column of the market), not of file names, so a file edited between two
// shards is caught; the options that shape the results beside them.
nlohmann::json run_identity(const SweepRun& run, const CheckedSweepRequest& checked) {
    const SweepRequest& r = checked.request;
    nlohmann::json id = inputs_identity(run.strategy.spec_text, run.strategy.spec, *run.grid, *run.space,
                                                run.market->market, run.window, run.account);
    id["rank_by"] = r.rank_by;
    id["min_trades"] = r.min_trades;
    id["top"] = r.top_n;
    id["all_rows"] = r.all_rows;
    id["periods"] = r.periods;
    id["pbo"] = r.pbo;
    id["walk_forward"] = r.walk_forward;
    id["cpcv"] = r.cpcv;
    id["spa"] = r.spa;
    id["returns"] = r.returns;
    // Note [Equity marks at UTC days]: named, with the number of days, only
    // when daily (the shards of format 6 before it have neither).
    if (r.daily_returns) id["return_days"] = run.return_days;
    id["spa_seed"] = r.spa_seed;
    id["spa_size"] = r.spa_size;
    // Note [Buy-and-hold benchmark]: named, with its marks, only when not
    // cash (the shards of format 6 before it have neither).
    if (r.spa_benchmark == "hold") {
        id["spa_benchmark"] = r.spa_benchmark;
        id["benchmark_marks"] = run.benchmark_marks;
    }
    id["shards"] = checked.shard ? checked.shard->count : 1;
    return id;
}

}  // namespace

// The id itself in a full sweep; a random one's through the inverse
// permutation (Note [Random combinations without materializing]).
std::vector<SweepRowRef> rows_of(const CombinationSpace& space, const std::vector<std::uint64_t>& ids) {
    std::vector<SweepRowRef> rows;
    for (std::uint64_t id : ids) rows.push_back({space.ordinal_of(id).value_or(space.count()), id});
    return rows;
}

std::optional<ShardRange> parse_shard(const std::string& text, std::string* why) {
    const std::size_t slash = text.find('/');
    std::uint64_t index = 0;
    std::uint64_t count = 0;
    const auto number = [](std::string_view digits, std::uint64_t* out) {
        if (digits.empty()) return false;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), *out);
        return error == std::errc() && end == digits.data() + digits.size();
    };
    if (slash == std::string::npos || !number(std::string_view(text).substr(0, slash), &index) ||
        !number(std::string_view(text).substr(slash + 1), &count)) {
        *why = "expected i/N with whole numbers 0 <= i < N, got '" + text + "'";
        return std::nullopt;
    }
    if (count == 0 || index >= count) {
        *why = "expected 0 <= i < N, got " + text + " (shards count from 0: 0/4 .. 3/4)";
        return std::nullopt;
    }
    if (count > kMaxShards) {
        *why = "expected at most " + std::to_string(kMaxShards) + " shards, got " + text +
               " (merge takes every shard on one command line; Note [Shards])";
        return std::nullopt;
    }
    return ShardRange{index, count};
}

const RankedRows& SweepRun::ranked() const {
    if (spool) return *spool;
    return *top_rows_;
}

CheckedSweepRequest check_sweep_request(SweepRequest r) {
    CheckedSweepRequest checked;
    // Note [Validation of a sweep]: dsr ranks after the sweep; the sweep
    // itself keeps its sharpe order, which is also what the table shows.
    checked.rank_by_dsr = r.rank_by == "dsr";
    checked.metric = find_metric_column(checked.rank_by_dsr ? "sharpe" : r.rank_by);
    if (checked.metric == nullptr) {
        std::string known;
        for (const MetricColumn& m : metric_columns()) known += (known.empty() ? "" : ", ") + std::string(m.name);
        throw UsageError("unknown metric '" + r.rank_by + "' for --rank-by (one of: " + known + ", dsr)");
    }
    if (r.min_trades < 0) {
        throw UsageError("--min-trades must be 0 (no minimum) or more, got " + std::to_string(r.min_trades));
    }
    if (r.top_n < 1 || r.top_n > static_cast<long long>(kMaxTopRows)) {
        throw UsageError("--top must be in 1.." + std::to_string(kMaxTopRows) + ", got " + std::to_string(r.top_n) +
                         (r.top_n > 0 ? " (--all-rows writes every row to the files)" : ""));
    }
    r.threads = resolve_threads(r.threads);
    // Note [Validation of a sweep]
    if (!r.walk_forward.empty()) {
        std::string why;
        checked.walk_forward_plan = parse_walk_forward(r.walk_forward, &why);
        if (!checked.walk_forward_plan) throw UsageError("--walk-forward: " + why);
        checked.walk_forward_metric = walk_forward_score(r.rank_by);
        if (!checked.walk_forward_metric) {
            throw UsageError("--walk-forward ranks each in-sample window by --rank-by computed from the period sums: "
                             "sharpe, sortino or total_return (got " + r.rank_by + ")");
        }
    }
    if (!r.cpcv.empty()) {
        std::string why;
        checked.cpcv_plan = parse_purged_cv(r.cpcv, &why);
        if (!checked.cpcv_plan) throw UsageError("--cpcv: " + why);
    }
    if (!r.spa.empty()) {
        std::string why;
        checked.spa_plan = parse_bootstrap(r.spa, &why);
        if (!checked.spa_plan) throw UsageError("--spa: " + why);
        if (!(r.spa_size > 0.0 && r.spa_size < 1.0)) {
            throw UsageError("--spa-size must be in (0, 1), got " + std::to_string(r.spa_size));
        }
    }
    if (r.spa_benchmark != "cash" && r.spa_benchmark != "hold") {
        throw UsageError("--spa-benchmark must be cash or hold, got '" + r.spa_benchmark + "'");
    }
    if (r.spa_benchmark == "hold" && !checked.spa_plan) {
        throw UsageError("--spa-benchmark sets what --spa tests against; give --spa too");
    }
    checked.return_streams = keeps_return_streams(checked.spa_plan.has_value(), r.returns, r.daily_returns);
    if (checked.return_streams && (r.returns == 0 || r.returns < -1)) {
        throw UsageError("--returns must be 1 or more parts of the window, got " + std::to_string(r.returns));
    }
    if (r.daily_returns && r.returns != -1) {
        throw UsageError("--returns is either M parts or daily, got both (" + std::to_string(r.returns) + " and daily)");
    }
    if (checked.rank_by_dsr) {
        if (r.periods == 0) throw UsageError("--rank-by dsr needs the period statistics: --periods must be 1..16, got 0");
        if (r.all_rows) throw UsageError("--rank-by dsr ranks the kept rows after the sweep; --all-rows cannot be ranked so");
        if (static_cast<std::size_t>(r.top_n) > kMaxDeflatedTopRows) {
            throw UsageError("--rank-by dsr replays each kept row on the CPU: --top at most " +
                             std::to_string(kMaxDeflatedTopRows) + ", got " + std::to_string(r.top_n));
        }
    }
    if (r.periods < 0) {
        r.periods =
            r.pbo || checked.walk_forward_plan || checked.cpcv_plan || checked.rank_by_dsr || checked.return_streams
                ? kMaxPeriods
                : 0;
    }
    if (checked.return_streams && r.periods == 0) {
        throw UsageError(std::string(checked.spa_plan ? "--spa" : "--returns") +
                         " reports in the validation, which --periods 0 turns off: give --periods 1..16 or none");
    }
    if (r.periods > kMaxPeriods) {
        throw UsageError("--periods must be in 1.." + std::to_string(kMaxPeriods) + ", got " + std::to_string(r.periods));
    }
    if (r.pbo && (r.periods < 2 || r.periods % 2 != 0)) {
        throw UsageError("--pbo splits the periods in halves: --periods must be even and at least 2, got " +
                         std::to_string(r.periods));
    }
    check_pbo_backend_name(r.pbo_backend);
    if (checked.walk_forward_plan && checked.walk_forward_plan->in_sample_periods >= r.periods) {
        throw UsageError("--walk-forward " + r.walk_forward + " needs more than " +
                         std::to_string(checked.walk_forward_plan->in_sample_periods) + " periods (--periods " +
                         std::to_string(r.periods) + "): one at least must be out of sample");
    }
    if (checked.cpcv_plan) {
        const std::string refused = check_purged_cv_plan(*checked.cpcv_plan, r.periods);
        if (!refused.empty()) throw UsageError("--cpcv " + r.cpcv + ": " + refused);
    }
    if (r.intrabar_bounds) {
        // Note [Bounds of the order inside a bar]
        if (!r.market.intrabar_file.empty()) {
            throw UsageError("--intrabar-bounds bounds the order inside bars without a path; with --intrabar the "
                             "finer bars settle it: give one or the other");
        }
        if (static_cast<std::size_t>(r.top_n) > kMaxBoundedRows) {
            throw UsageError("--intrabar-bounds replays each kept row on the CPU, twice: --top at most " +
                             std::to_string(kMaxBoundedRows) + ", got " + std::to_string(r.top_n));
        }
        if (!r.shard.empty()) {
            throw UsageError("--intrabar-bounds replays the kept rows after the sweep; a shard's rows are ranked "
                             "once merged: run it without --shard");
        }
    }
    if (!r.shard.empty()) {
        std::string why;
        checked.shard = parse_shard(r.shard, &why);
        if (!checked.shard) throw UsageError("--shard: " + why);
        if (checked.rank_by_dsr) {
            throw UsageError("--rank-by dsr replays the kept rows on the market after the sweep; shards cannot be "
                             "ranked so (rank shards by a metric)");
        }
    }
    checked.request = std::move(r);
    return checked;
}

SweepValidation validate_rows(const CheckedSweepRequest& checked, std::span<const PeriodStatistics> periods,
                              std::uint64_t combinations, std::vector<SweepRowRef> top_rows,
                              const std::function<OverfittingReport(std::span<const PeriodStatistics>, int,
                                                                    const OverfittingOptions&)>& overfitting,
                              const BootstrapScanFactory& bootstrap, const SweepHooks& hooks,
                              const SweepEquityMarks& marks) {
    const SweepRequest& r = checked.request;
    SweepProgress local_progress;
    SweepProgress& progress = hooks.progress != nullptr ? *hooks.progress : local_progress;
    ValidationRequest validation;
    validation.n_periods = r.periods;
    validation.pbo = r.pbo;
    validation.walk_forward = checked.walk_forward_plan;
    validation.cpcv = checked.cpcv_plan;
    if (checked.return_streams) {
        if (marks.per_combination < 1 || marks.values.size() != combinations * marks.per_combination) {
            throw std::logic_error("the sweep kept " + std::to_string(marks.values.size()) + " equity marks for " +
                                   std::to_string(combinations) + " combinations");
        }
        validation.return_parts = marks.per_combination;
        validation.daily_returns = r.daily_returns;
        validation.equity_marks = marks.values;
        validation.initial_equity = marks.initial_equity;
        validation.seed = r.spa_seed;
    }
    if (checked.spa_plan) {
        StationaryBootstrapPlan plan;
        plan.observations = marks.per_combination;
        plan.resamples = checked.spa_plan->resamples;
        plan.mean_block = checked.spa_plan->mean_block.value_or(default_mean_block(marks.per_combination));
        plan.seed = r.spa_seed;
        validation.spa = plan;
        validation.spa_size = r.spa_size;
        if (r.spa_benchmark == "hold") {
            if (marks.benchmark.size() != static_cast<std::size_t>(marks.per_combination)) {
                throw std::logic_error("--spa-benchmark hold: " + std::to_string(marks.benchmark.size()) +
                                       " benchmark marks for " + std::to_string(marks.per_combination) + " parts");
            }
            validation.benchmark_marks = marks.benchmark;
        }
    }
    if (checked.walk_forward_metric) validation.score = *checked.walk_forward_metric;
    validation.top_rows = std::move(top_rows);
    if (validation.top_rows.size() > 10) validation.top_rows.resize(10);
    validation.pbo_options.threads = r.threads;
    validation.threads = r.threads;
    validation.pbo_options.scanned = &progress.done;
    validation.pbo_options.cancel = hooks.cancel;
    validation.overfitting = overfitting;
    validation.bootstrap = bootstrap;
    // The scans of every combination: the CSCV's two, the CPCV's one.
    const bool scans = r.pbo || checked.cpcv_plan.has_value() || checked.spa_plan.has_value();
    if (scans) {
        progress.done = 0;
        progress.total = (r.pbo ? cscv_scan_total(combinations) : 0) + (checked.cpcv_plan ? combinations : 0) +
                         (checked.spa_plan ? combinations : 0);
        progress.stage = SweepProgress::kValidationScans;
    }
    std::unique_ptr<ProgressReporter> reporter;
    if (scans && hooks.progress_on_stderr) {
        const char* what = r.pbo ? "pbo scans" : checked.cpcv_plan ? "cpcv scan" : "spa bootstrap";
        reporter = std::make_unique<ProgressReporter>(what, progress.total.load(), progress.done, 0.0);
    }
    return validate_sweep(periods, validation);
}

std::unique_ptr<SweepRun> run_sweep(const CheckedSweepRequest& checked, const SweepHooks& hooks) {
    const SweepRequest& r = checked.request;
    const int threads = r.threads;
    const int periods = r.periods;
    auto run = std::make_unique<SweepRun>();
    SweepProgress local_progress;
    SweepProgress& progress = hooks.progress != nullptr ? *hooks.progress : local_progress;

    run->strategy = load_strategy(r.strategy);
    const StrategySpec& spec = run->strategy.spec;
    ResolvedBackend backend = resolve_backend(r.backend, spec.name, threads, hooks.notice);
    if (r.pbo && r.pbo_backend == "cuda" && !backend.overfitting) {
        throw UsageError("--pbo-backend cuda runs the CSCV on the GPU of a cuda sweep: " +
                         (backend.name != "cuda" ? "this sweep runs on " + backend.name
                                                : std::string("this btforge was built without nvcc")));
    }
    run->grid = load_grid(r.strategy, spec);
    const Grid& grid = *run->grid;
    run->space.emplace(spec, grid);
    const CombinationSpace& space = *run->space;
    run->account = resolve_account(r.account, spec, &grid);
    run->market = r.loaded_market ? r.loaded_market : std::make_shared<const LoadedMarket>(load_market(r.market));
    const Market& market = run->market->market;
    run->window = choose_window(market, r.window);
    const MarketWindow& window = run->window;
    if (r.intrabar_bounds) {
        // Note [Bounds of the order inside a bar]
        check_bar_legs_apply(*run->strategy.binding, spec.name, market, "--intrabar-bounds");
    }
    if (window.n_bars < periods) {
        throw UsageError("--periods " + std::to_string(periods) + " needs at least that many bars; the window has " +
                         std::to_string(window.n_bars));
    }
    // Note [Equity marks]: the return streams, `returns` parts of the window
    // or its UTC days (Note [Equity marks at UTC days]).
    int equity_marks = 0;
    if (checked.return_streams && r.daily_returns) {
        equity_marks = utc_days_in_window(market, window);
        run->return_days = equity_marks;
    } else if (checked.return_streams) {
        equity_marks = return_stream_parts(r.returns, window.n_bars);
        if (equity_marks > window.n_bars) {
            throw UsageError("--returns " + std::to_string(equity_marks) + " needs at least that many bars; the window has " +
                             std::to_string(window.n_bars));
        }
    }

    if (r.spa_benchmark == "hold") {
        const std::vector<int> mark_bars = equity_mark_bars(market, window, equity_marks, r.daily_returns);
        run->benchmark_marks = buy_and_hold_marks(market, window, mark_bars, run->account.initial_equity);
    }
    run->identity = run_identity(*run, checked);  // Note [Identity of a run's inputs]
    if (checked.shard) {
        std::tie(run->first_ordinal, run->end_ordinal) = shard_ordinals(*checked.shard, space.count());
        if (hooks.resume && hooks.resume(*run)) {
            run->resumed = true;
            return run;
        }
    }

    std::vector<std::vector<double>> values;
    for (const GridAxis& axis : grid.axes) values.push_back(axis.values);
    SeriesCache series = series_for_backend(backend, spec, market, values, threads);

    SweepJob job{run->strategy.binding, &spec, &space, &market, window, make_account_config(run->account, market),
                 &series};
    job.account.n_periods = periods;
    job.account.equity_marks = equity_marks;
    job.account.daily_equity_marks = r.daily_returns ? 1 : 0;
    run->bars_per_year = job.account.bars_per_year;
    const std::uint64_t cells_per_combination =
        static_cast<std::uint64_t>(window.n_bars) * static_cast<std::uint64_t>(market.n_symbols());
    // Note [Run header]
    run->assumptions = describe_assumptions(*run->market, window, run->account);
    run->header = "btforge sweep: strategy " + spec.name + ", " + std::to_string(space.count()) + " combinations of " +
                  grid.origin + "\n" + format_assumptions(run->assumptions) +
                  "  series:     " + describe_series(series, threads) + "\n";
    // Note [Conditional axes]: what the grid leaves out, and whether that is proven.
    if (std::string conditions = describe_conditions(grid, spec); !conditions.empty())
        run->header += "  conditions: " + conditions + "\n";
    if (hooks.header) hooks.header(run->header);

    std::atomic<std::uint64_t> completed{0};
    SweepOptions sweep_options;
    sweep_options.threads = threads;
    sweep_options.rank_metric = checked.metric;
    sweep_options.min_trades = r.min_trades;
    sweep_options.top_n = static_cast<std::size_t>(r.top_n);
    sweep_options.keep_all_rows = false;
    if (checked.shard) {
        sweep_options.first_ordinal = run->first_ordinal;
        sweep_options.end_ordinal = run->end_ordinal;
        // A shard file holds every row of the shard when asked (Note [Shards]).
        sweep_options.keep_all_rows = r.all_rows;
    }
    // Note [Rows spooled to disk]
    if (r.all_rows && !checked.shard) {
        run->spool = std::make_unique<RowSpool>(r.spool_directory, space.count(), checked.rank_order());
        sweep_options.row_sink = [spool = run->spool.get()](std::uint64_t first, std::span<const ResultRow> rows) {
            spool->store(first, rows);
        };
    }
    progress.done = 0;
    progress.total = checked.shard ? run->end_ordinal - run->first_ordinal : space.count();
    progress.stage = SweepProgress::kSweeping;
    sweep_options.completed = &progress.done;
    sweep_options.cancel = hooks.cancel;
    {
        std::unique_ptr<ProgressReporter> reporter;
        if (hooks.progress_on_stderr) {
            reporter = std::make_unique<ProgressReporter>("sweep", progress.total.load(), progress.done,
                                                          static_cast<double>(cells_per_combination));
        }
        run->outcome = backend.run(job, sweep_options);
    }
    SweepOutcome& outcome = run->outcome;
    if (outcome.cancelled) {
        run->cancelled = true;
        run->cancelled_while = "after " + std::to_string(progress.done.load()) + " of " +
                               std::to_string(progress.total.load()) + " combinations";
        return run;
    }

    std::string backend_description = describe_run(backend.description, outcome);
    if (!outcome.thread_shortfall.empty()) {
        // Note [Threads that cannot start]
        backend_description += "; " + std::to_string(outcome.threads) + " of " + thread_count_text(threads) + " started";
    }

    // Note [Distinct outcomes]: a shard's are counted once merged.
    if (!checked.shard) run->outcomes.emplace(space, 0, outcome.outcomes);

    // Note [Validation of a sweep]
    if (periods > 0) {
        for (int p = 0; p < periods; ++p) {
            const auto first = static_cast<std::size_t>(window.first_bar + period_first_bar(p, window.n_bars, periods));
            const auto last = static_cast<std::size_t>(window.first_bar + period_first_bar(p + 1, window.n_bars, periods)) - 1;
            run->spans.emplace_back(format_timestamp_iso(market.timestamp_ms.at(first)),
                                    format_timestamp_iso(market.timestamp_ms.at(last)));
        }
        std::vector<SweepRowRef> top_rows;
        if (checked.rank_by_dsr) {
            // The rows of highest deflated Sharpe ratio, their metrics from
            // the CPU reference (the same bits as the sweep's rows: parity).
            // One row per outcome: its smallest id (Note [Distinct outcomes]).
            const OutcomeIndex& outcomes = *run->outcomes;
            top_rows = rank_by_deflated_sharpe(
                outcome.periods, periods, static_cast<std::size_t>(r.top_n), r.min_trades,
                [&space](std::uint64_t ordinal) { return space.combination_id(ordinal); }, threads,
                [&space, &outcomes](std::uint64_t ordinal) {
                    const std::uint64_t id = space.combination_id(ordinal);
                    return outcomes.of(id).first_id == id;
                });
            outcome.top.clear();
            for (const SweepRowRef& row : top_rows) {
                std::vector<double> row_values(spec.parameters.size());
                space.decode(row.combination_id, row_values);
                std::vector<std::vector<double>> single;
                for (double v : row_values) single.push_back({v});
                const SeriesCache own = SeriesCache::build(spec, market, single, 1);
                SweepJob replay = job;
                replay.series = &own;
                replay.account.n_periods = 0;
                outcome.top.push_back(ResultRow{row.combination_id, run_combination(replay, row_values, nullptr, nullptr)});
            }
        } else {
            std::vector<std::uint64_t> ids;
            for (std::size_t i = 0; i < std::min<std::size_t>(outcome.top.size(), 10); ++i) {
                ids.push_back(outcome.top[i].combination_id);
            }
            top_rows = rows_of(space, ids);
        }
        // A shard's statistics are validated once merged (Note [Shards]).
        if (!checked.shard) {
            SweepHooks validation_hooks = hooks;
            validation_hooks.progress = &progress;
            run->validation = validate_rows(checked, outcome.periods, outcome.combinations, std::move(top_rows),
                                            r.pbo_backend != "cpu" ? backend.overfitting : nullptr,
                                            r.pbo_backend != "cpu" ? backend.bootstrap : nullptr, validation_hooks,
                                            SweepEquityMarks{outcome.equity_marks, equity_marks,
                                                             job.account.initial_equity, run->benchmark_marks});
        }
        if (run->validation && run->validation->cancelled()) {
            run->cancelled = true;
            const SweepValidation& v = *run->validation;
            run->cancelled_while = v.pbo && v.pbo->cancelled     ? "while computing the probability of backtest overfitting"
                                   : v.cpcv && v.cpcv->cancelled ? "while computing the combinatorial purged cross-validation"
                                                                 : "while bootstrapping the Reality Check, SPA and StepM";
            return run;
        }
    }

    if (r.intrabar_bounds) {
        // Note [Bounds of the order inside a bar]
        run->order_bounds = replay_order_bounds(job, spec, space, outcome.top, threads, hooks.cancel);
        if (hooks.cancel != nullptr && hooks.cancel->load()) {
            run->cancelled = true;
            run->cancelled_while = "while replaying the kept rows for --intrabar-bounds";
            return run;
        }
    }

    RunSummary& summary = run->summary;
    summary.strategy = spec.name;
    summary.spec_origin = spec.origin;
    summary.grid_origin = grid.origin;
    summary.market = run->assumptions.market;
    summary.timestamps = run->assumptions.timestamps;
    summary.window = window_facts(market, window);
    summary.funding = run->assumptions.funding;
    summary.synthetic_market = run->market->synthetic;    // Note [Synthetic market said plainly]
    summary.instruments = instruments_json(*run->market);  // Note [Instruments stated]
    summary.backend = backend_description;
    summary.combinations = outcome.combinations;
    if (run->outcomes) {
        run->outcomes->describe(outcome.top);
        summary.distinct_outcomes = run->outcomes->distinct();
    }
    summary.invalid_rows = outcome.invalid_rows;
    summary.cells = outcome.combinations * cells_per_combination;
    summary.seconds = outcome.seconds;
    summary.rank_by = r.rank_by;
    summary.min_trades = r.min_trades;
    summary.account = run->account;
    summary.inputs = run_inputs_json({r.strategy, r.loaded_market ? r.loaded_market->choice : r.market, r.window,
                                      r.account});
    summary.identity = inputs_identity_of(run->identity);
    run->top_rows_.emplace(outcome.top);
    if (run->spool) run->spool->rank();
    progress.stage = SweepProgress::kDone;
    return run;
}

}  // namespace btforge

namespace btforge {

std::vector<NamedFile> input_files(const SweepRequest& r) {
    return {{"--data", r.market.data_file},
            {"--funding-file", r.market.funding_file},
            {"--intrabar", r.market.intrabar_file},
            {"--mark", r.market.mark_file},
            {"--instruments", r.market.instruments_file},
            {"--spec", r.strategy.spec_file},
            {"--grid", r.strategy.grid_file}};
}

std::vector<NamedFile> result_files(const std::string& output, const CheckedSweepRequest& request) {
    std::vector<NamedFile> files = {{"--output", output + ".csv"}, {"--output", output + ".json"}};
    if (request.request.periods > 0) files.push_back({"--output", output + ".validation.json"});
    if (request.walk_forward_plan) files.push_back({"--output", output + ".walkforward.csv"});
    if (request.request.intrabar_bounds) files.push_back({"--output", output + ".bounds.csv"});  // last
    return files;
}

void write_result_files(OutputTransaction& outputs, const RunSummary& summary, const StrategySpec& spec,
                        const CombinationSpace& space, const RankedRows& rows, const OutcomeIndex& outcomes,
                        const std::optional<SweepValidation>& validation, const PeriodSpans& spans,
                        double bars_per_year) {
    write_results_csv(outputs.stream(0), spec, space, rows, outcomes, summary.min_trades);
    write_results_json(outputs.stream(1), summary, spec, space, rows, outcomes);
    if (!validation) return;
    write_validation_json(outputs.stream(2), *validation, spec, space, spans, bars_per_year);
    if (validation->walk_forward) {
        write_walk_forward_csv(outputs.stream(3), *validation->walk_forward, spec, space, spans, bars_per_year);
    }
}

std::string describe_result_files(const std::string& output, const CheckedSweepRequest& request, std::uint64_t rows) {
    std::string text = "results (" + std::to_string(rows) + " rows ranked by " + request.request.rank_by + "):";
    std::string separator = " ";
    for (const NamedFile& file : result_files(output, request)) {
        text += separator + file.path.string();
        separator = ", ";
    }
    return text + "\n";
}

ShardFile make_shard_file(SweepRun& run, const CheckedSweepRequest& checked) {
    ShardFile shard;
    shard.identity = run.identity;
    shard.range = *checked.shard;
    shard.first_ordinal = run.first_ordinal;
    shard.end_ordinal = run.end_ordinal;
    shard.summary = run.summary;
    shard.spans = run.spans;
    shard.bars_per_year = run.bars_per_year;
    shard.rows = std::move(checked.request.all_rows ? run.outcome.all : run.outcome.top);
    shard.periods = std::move(run.outcome.periods);
    shard.outcomes = std::move(run.outcome.outcomes);
    shard.equity_marks = std::move(run.outcome.equity_marks);
    return shard;
}

}  // namespace btforge
