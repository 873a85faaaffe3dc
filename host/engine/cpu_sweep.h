#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "host/data/finer_bars.h"
#include "host/data/market.h"
#include "host/data/market_window.h"
#include "host/engine/metric_columns.h"
#include "host/engine/outcome_key.h"
#include "host/engine/series_cache.h"
#include "host/engine/top_n.h"
#include "host/spec/combination_space.h"
#include "host/spec/strategy_spec.h"
#include "host/strategies/strategy_binding.h"
#include "reference/accounting/fee_model.h"

namespace btforge {

// Everything a combination needs, prepared once per run. The series are
// computed on the whole market and the strategy sees `window` of it
// (Note [Market windows]).
struct SweepJob {
    const StrategyBinding* binding;
    const StrategySpec* spec;
    const CombinationSpace* space;
    const Market* market;
    MarketWindow window;
    AccountConfig account;
    const SeriesCache* series;
    // Note [A bar as three legs]: +1 or -1 walks each bar as its legs, the
    // favourable or the adverse extreme first (the replays of
    // --intrabar-bounds, on the CPU); 0, the market as it is.
    int bar_legs = 0;

    // The window of the market the strategy runs on.
    MarketView view() const { return with_bar_legs(window_view(market->view(), window), bar_legs); }
    // The series of each indicator use for one combination, starting at the
    // window's first bar like view()'s arrays.
    void resolve_series(std::span<const double> parameter_values, std::span<const double*> out) const;
};

struct SweepOptions {
    int threads = 1;
    const MetricColumn* rank_metric = nullptr;
    int min_trades = kDefaultMinTrades;  // Note [Rows with few trades]
    std::size_t top_n = 20;  // outcomes kept, each by its best row (Note [Distinct outcomes])
    bool keep_all_rows = false;
    std::atomic<std::uint64_t>* completed = nullptr;  // progress counter, optional
    const std::atomic<bool>* cancel = nullptr;        // stops the workers early, optional
    std::uint64_t max_combinations = 0;               // run only the first N ordinals (0: all)
    // Note [Shards]: run only the ordinals [first_ordinal, end_ordinal) of
    // the run order (end 0: the space's end). The outcome's rows keep their
    // combination ids; its periods, `all` and the row sink's ordinals count
    // from first_ordinal. Every engine takes it (cpu, emu, cuda).
    std::uint64_t first_ordinal = 0;
    std::uint64_t end_ordinal = 0;
    // Every row as soon as it is computed, `rows` at run order `first_ordinal`
    // onwards; called from several threads at once, in no particular order
    // (Note [Rows spooled to disk]). Empty: not asked.
    std::function<void(std::uint64_t first_ordinal, std::span<const ResultRow> rows)> row_sink;

    // What the rows are ranked by (Note [Deterministic ranking]).
    RankOrder rank_order() const { return RankOrder{rank_metric, min_trades}; }
};

// How many combinations a run of `options` covers: its ordinals from
// first_ordinal.
std::uint64_t sweep_combinations(const SweepJob& job, const SweepOptions& options);

struct SweepOutcome {
    // Best first, one row per outcome: Note [Distinct outcomes].
    std::vector<ResultRow> top;
    std::vector<ResultRow> all;  // in run order (ordinal), when asked
    // Note [Period statistics]: job.account.n_periods per combination, in run
    // order (ordinal-major), when the job asks for periods.
    std::vector<PeriodStatistics> periods;
    // Note [Equity marks]: job.account.equity_marks per combination, in run
    // order (ordinal-major), when the job asks for them. Not part of an
    // outcome's key: a run with and without them has the same outcomes.
    std::vector<double> equity_marks;
    // Note [Distinct outcomes]: the key of every combination's outcome, in
    // run order.
    std::vector<OutcomeKey> outcomes;
    std::uint64_t combinations = 0;
    std::uint64_t invalid_rows = 0;  // rows with non-finite metrics (Note [Rows with non-finite metrics])
    double seconds = 0.0;
    int threads = 1;               // that ran (Note [Threads that cannot start])
    std::string thread_shortfall;  // why fewer than SweepOptions::threads ran, or empty
    bool cancelled = false;
    // Generated kernels only (emu, cuda): the variant that ran, "wide (up to
    // 512 symbols)" (Note [Kernel variants]); empty for the reference.
    std::string kernel_variant;
};

// The outcome key of combination `id`, one of the run's (Note [Distinct
// outcomes]).
OutcomeKey outcome_key_of(const SweepOutcome& outcome, const CombinationSpace& space, const SweepOptions& options,
                          std::uint64_t id);

// What ran, for run lines and results: `backend`'s description, with the
// kernel variant when the outcome names one ("cuda (...); kernel variant
// wide (up to 512 symbols)").
std::string describe_run(const std::string& backend, const SweepOutcome& outcome);

// Binds a spec to its strategy kernel and checks that the two agree
// (Note [Strategy bindings]). Throws std::runtime_error naming the mismatch.
const StrategyBinding& bind_strategy(const StrategySpec& spec);

// Runs one combination, e.g. for replay; log, equity_curve and periods
// (job.account.n_periods of them) may be null.
Metrics run_combination(const SweepJob& job, std::span<const double> parameter_values, FillLog* log,
                        double* equity_curve, PeriodStatistics* periods = nullptr);

// Runs rows [begin, end) of the run order into `rows` (end - begin of them)
// and, when the job asks for periods, their statistics into `periods`
// (job.account.n_periods per row; null otherwise), and when it asks for
// equity marks, theirs into `marks` (job.account.equity_marks per row; null
// otherwise).
using BlockRunner = std::function<void(std::uint64_t begin, std::uint64_t end, ResultRow* rows,
                                       PeriodStatistics* periods, double* marks)>;

// The thread pool every host engine shares: workers take blocks of `block`
// ordinals from one counter, run them with `run_block`, keep their own top N
// and merge it at the end; progress, cancellation, keep_all_rows and errors
// (the first one is rethrown) are handled here.
SweepOutcome run_sweep_in_blocks(const SweepJob& job, const SweepOptions& options, std::uint64_t block,
                                 const BlockRunner& run_block);

// Note [Thread-count independence]
// Each combination is a pure function of its parameter values and the shared
// read-only market and series; workers only pick which ordinals they run.
// Rows are ranked by a total order (Note [Deterministic ranking]), so results
// are bit-identical for any thread count.
SweepOutcome run_cpu_sweep(const SweepJob& job, const SweepOptions& options);

}  // namespace btforge
