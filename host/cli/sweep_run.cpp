#include "host/cli/sweep_run.h"

#include <algorithm>

#include "host/cli/command_line.h"
#include "host/data/timestamp_parse.h"
#include "host/engine/account_config.h"
#include "host/report/progress_reporter.h"
#include "host/spec/account_settings.h"

namespace btforge {

namespace po = boost::program_options;

namespace {

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

// Note [Inputs of a run]
// The result JSON's "inputs" are the options that ran the sweep, keyed by
// their command-line names with '_' for '-' (the keys of the Python
// package's option dicts), files as absolute paths: what a report needs to
// replay a row, and what a later run must match to be the same run. Options
// left at their defaults are left out; a market or grid that lived only in
// memory (a DataFrame, a grid dict) is named by its placeholder ("data":
// "<DataFrame>") and its grid document kept as "grid_text".
nlohmann::ordered_json sweep_inputs(const SweepRequest& r) {
    nlohmann::ordered_json in;
    const auto path = [](const std::string& file) {
        return file.empty() || file.front() == '<' ? file : std::filesystem::absolute(file).lexically_normal().string();
    };
    in["strategy"] = r.strategy.strategy;
    if (!r.strategy.spec_file.empty()) in["spec"] = path(r.strategy.spec_file);
    if (!r.strategy.grid_file.empty()) in["grid"] = path(r.strategy.grid_file);
    if (!r.strategy.grid_text.empty()) {
        in["grid_text"] = r.strategy.grid_text;
        in["grid_text_origin"] = r.strategy.grid_text_origin;
    }
    if (!r.strategy.param_options.empty()) in["param"] = r.strategy.param_options;
    const MarketChoice& m = r.loaded_market ? r.loaded_market->choice : r.market;
    const MarketChoice defaults;
    if (!m.data_file.empty()) in["data"] = path(m.data_file);
    if (!m.instruments_file.empty()) in["instruments"] = path(m.instruments_file);
    if (!m.symbols.empty()) in["symbols"] = m.symbols;
    if (m.timestamp_unit != defaults.timestamp_unit) in["timestamp_unit"] = m.timestamp_unit;
    if (!m.funding_file.empty()) in["funding_file"] = path(m.funding_file);
    if (m.funding_rate != defaults.funding_rate) in["funding_rate"] = m.funding_rate;
    if (m.funding_interval_hours != defaults.funding_interval_hours) in["funding_interval_hours"] = m.funding_interval_hours;
    if (m.data_file.empty()) {
        in["synthetic_seed"] = m.synthetic_seed;
        in["synthetic_symbols"] = m.synthetic_symbols;
        in["synthetic_bars"] = m.synthetic_bars;
        in["synthetic_bar_minutes"] = m.synthetic_bar_minutes;
    }
    if (!r.window.from.empty()) in["from"] = r.window.from;
    if (!r.window.to.empty()) in["to"] = r.window.to;
    for (std::size_t i = 0; i < kAccountSettings; ++i) {
        if (r.account.overrides.values[i]) in[std::string(account_settings()[i].key)] = *r.account.overrides.values[i];
    }
    if (!r.account.margin_mode.empty()) in["margin_mode"] = r.account.margin_mode;
    return in;
}

}  // namespace

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
        throw po::error("unknown metric '" + r.rank_by + "' for --rank-by (one of: " + known + ", dsr)");
    }
    if (r.top_n < 1 || r.top_n > static_cast<long long>(kMaxTopRows)) {
        throw po::error("--top must be in 1.." + std::to_string(kMaxTopRows) + ", got " + std::to_string(r.top_n) +
                        (r.top_n > 0 ? " (--all-rows writes every row to the files)" : ""));
    }
    r.threads = resolve_threads(r.threads);
    // Note [Validation of a sweep]
    if (!r.walk_forward.empty()) {
        std::string why;
        checked.walk_forward_plan = parse_walk_forward(r.walk_forward, &why);
        if (!checked.walk_forward_plan) throw po::error("--walk-forward: " + why);
        checked.walk_forward_metric = walk_forward_score(r.rank_by);
        if (!checked.walk_forward_metric) {
            throw po::error("--walk-forward ranks each in-sample window by --rank-by computed from the period sums: "
                            "sharpe, sortino or total_return (got " + r.rank_by + ")");
        }
    }
    if (checked.rank_by_dsr) {
        if (r.periods == 0) throw po::error("--rank-by dsr needs the period statistics: --periods must be 1..16, got 0");
        if (r.all_rows) throw po::error("--rank-by dsr ranks the kept rows after the sweep; --all-rows cannot be ranked so");
        if (static_cast<std::size_t>(r.top_n) > kMaxDeflatedTopRows) {
            throw po::error("--rank-by dsr replays each kept row on the CPU: --top at most " +
                            std::to_string(kMaxDeflatedTopRows) + ", got " + std::to_string(r.top_n));
        }
    }
    if (r.periods < 0) r.periods = r.pbo || checked.walk_forward_plan || checked.rank_by_dsr ? kMaxPeriods : 0;
    if (r.periods > kMaxPeriods) {
        throw po::error("--periods must be in 1.." + std::to_string(kMaxPeriods) + ", got " + std::to_string(r.periods));
    }
    if (r.pbo && (r.periods < 2 || r.periods % 2 != 0)) {
        throw po::error("--pbo splits the periods in halves: --periods must be even and at least 2, got " +
                        std::to_string(r.periods));
    }
    if (r.pbo_backend != "auto" && r.pbo_backend != "cpu" && r.pbo_backend != "cuda") {
        throw po::error("--pbo-backend must be auto, cpu or cuda, got '" + r.pbo_backend + "'");
    }
    if (checked.walk_forward_plan && checked.walk_forward_plan->in_sample_periods >= r.periods) {
        throw po::error("--walk-forward " + r.walk_forward + " needs more than " +
                        std::to_string(checked.walk_forward_plan->in_sample_periods) + " periods (--periods " +
                        std::to_string(r.periods) + "): one at least must be out of sample");
    }
    checked.request = std::move(r);
    return checked;
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
    ResolvedBackend backend = resolve_backend(r.backend, spec.name, threads);
    if (r.pbo && r.pbo_backend == "cuda" && !backend.overfitting) {
        throw po::error("--pbo-backend cuda runs the CSCV on the GPU of a cuda sweep: " +
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
    if (window.n_bars < periods) {
        throw po::error("--periods " + std::to_string(periods) + " needs at least that many bars; the window has " +
                        std::to_string(window.n_bars));
    }

    std::vector<std::vector<double>> values;
    for (const GridAxis& axis : grid.axes) values.push_back(axis.values);
    SeriesCache series = series_for_backend(backend, spec, market, values, threads);

    SweepJob job{run->strategy.binding, &spec, &space, &market, window, make_account_config(run->account, market),
                 &series};
    job.account.n_periods = periods;
    run->bars_per_year = job.account.bars_per_year;
    const std::uint64_t cells_per_combination =
        static_cast<std::uint64_t>(window.n_bars) * static_cast<std::uint64_t>(market.n_symbols());
    // Note [Run header]
    run->assumptions = describe_assumptions(*run->market, window, run->account);
    run->header = "btforge sweep: strategy " + spec.name + ", " + std::to_string(space.count()) + " combinations of " +
                  grid.origin + "\n" + format_assumptions(run->assumptions) +
                  "  series:     " + describe_series(series, threads) + "\n";
    if (hooks.header) hooks.header(run->header);

    std::atomic<std::uint64_t> completed{0};
    SweepOptions sweep_options;
    sweep_options.threads = threads;
    sweep_options.rank_metric = checked.metric;
    sweep_options.top_n = static_cast<std::size_t>(r.top_n);
    sweep_options.keep_all_rows = false;
    // Note [Rows spooled to disk]
    if (r.all_rows) {
        run->spool = std::make_unique<RowSpool>(r.spool_directory, space.count(), *checked.metric);
        sweep_options.row_sink = [spool = run->spool.get()](std::uint64_t first, std::span<const ResultRow> rows) {
            spool->store(first, rows);
        };
    }
    progress.done = 0;
    progress.total = space.count();
    progress.stage = SweepProgress::kSweeping;
    sweep_options.completed = &progress.done;
    sweep_options.cancel = hooks.cancel;
    {
        std::unique_ptr<ProgressReporter> reporter;
        if (hooks.progress_on_stderr) {
            reporter = std::make_unique<ProgressReporter>("sweep", space.count(), progress.done,
                                                          static_cast<double>(cells_per_combination));
        }
        run->outcome = backend.run(job, sweep_options);
    }
    SweepOutcome& outcome = run->outcome;
    if (outcome.cancelled) {
        run->cancelled = true;
        run->cancelled_while = "after " + std::to_string(progress.done.load()) + " of " +
                               std::to_string(space.count()) + " combinations";
        return run;
    }

    std::string backend_description = describe_run(backend.description, outcome);
    if (!outcome.thread_shortfall.empty()) {
        // Note [Threads that cannot start]
        backend_description += "; " + std::to_string(outcome.threads) + " of " + thread_count_text(threads) + " started";
    }

    // Note [Validation of a sweep]
    if (periods > 0) {
        for (int p = 0; p < periods; ++p) {
            const auto first = static_cast<std::size_t>(window.first_bar + period_first_bar(p, window.n_bars, periods));
            const auto last = static_cast<std::size_t>(window.first_bar + period_first_bar(p + 1, window.n_bars, periods)) - 1;
            run->spans.emplace_back(format_timestamp_iso(market.timestamp_ms.at(first)),
                                    format_timestamp_iso(market.timestamp_ms.at(last)));
        }
        ValidationRequest validation;
        validation.n_periods = periods;
        validation.pbo = r.pbo;
        validation.walk_forward = checked.walk_forward_plan;
        if (checked.walk_forward_metric) validation.score = *checked.walk_forward_metric;
        if (checked.rank_by_dsr) {
            // The rows of highest deflated Sharpe ratio, their metrics from
            // the CPU reference (the same bits as the sweep's rows: parity).
            const std::vector<SweepRowRef> ranked = rank_by_deflated_sharpe(
                outcome.periods, periods, static_cast<std::size_t>(r.top_n),
                [&space](std::uint64_t ordinal) { return space.combination_id(ordinal); });
            outcome.top.clear();
            for (const SweepRowRef& row : ranked) {
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
            validation.top_rows = ranked;
        } else {
            std::vector<std::uint64_t> ids;
            for (std::size_t i = 0; i < std::min<std::size_t>(outcome.top.size(), 10); ++i) {
                ids.push_back(outcome.top[i].combination_id);
            }
            validation.top_rows = rows_of(space, ids);
        }
        if (validation.top_rows.size() > 10) validation.top_rows.resize(10);
        validation.pbo_options.threads = threads;
        validation.pbo_options.scanned = &progress.done;
        validation.pbo_options.cancel = hooks.cancel;
        if (r.pbo_backend != "cpu") validation.overfitting = backend.overfitting;
        if (r.pbo) {
            progress.done = 0;
            progress.total = cscv_scan_total(outcome.combinations);
            progress.stage = SweepProgress::kPbo;
        }
        {
            std::unique_ptr<ProgressReporter> reporter;
            if (r.pbo && hooks.progress_on_stderr) {
                reporter = std::make_unique<ProgressReporter>("pbo scans", progress.total.load(), progress.done, 0.0);
            }
            run->validation = validate_sweep(outcome.periods, validation);
        }
        if (run->validation->pbo && run->validation->pbo->cancelled) {
            run->cancelled = true;
            run->cancelled_while = "while computing the probability of backtest overfitting";
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
    summary.backend = backend_description;
    summary.combinations = outcome.combinations;
    summary.invalid_rows = outcome.invalid_rows;
    summary.cells = outcome.combinations * cells_per_combination;
    summary.seconds = outcome.seconds;
    summary.rank_by = r.rank_by;
    summary.account = run->account;
    summary.inputs = sweep_inputs(r);
    run->top_rows_.emplace(outcome.top);
    if (run->spool) run->spool->rank();
    progress.stage = SweepProgress::kDone;
    return run;
}

}  // namespace btforge
