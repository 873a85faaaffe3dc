#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/app/account_choice.h"
#include "host/app/backend_choice.h"
#include "host/app/market_choice.h"
#include "host/app/output_files.h"
#include "host/app/run_header.h"
#include "host/app/strategy_choice.h"
#include "host/app/thread_count.h"
#include "host/app/window_choice.h"
#include "host/engine/cpu_sweep.h"
#include "host/report/order_bounds_writer.h"
#include "host/report/ranked_rows.h"
#include "host/report/results_writer.h"
#include "host/report/shard_file.h"
#include "host/report/validation_writer.h"
#include "host/validation/sweep_validation.h"

namespace btforge {

// Note [One sweep, two front ends]
// `btforge sweep` and the Python package's btforge.sweep run the same
// function: the request is what the command line (or the keyword arguments)
// asked, checked by check_sweep_request with the command line's usage errors
// (UsageError, named by option: Note [Usage errors]), and run_sweep does the
// loading, the sweep, the validation and the ranking. The front ends differ
// only in what they do with the SweepRun: the command writes its files and
// prints the table; Python makes DataFrames of it. So a DataFrame of
// btforge.sweep is, row for row, the CSV of the same command.

// The largest --top: the top rows are kept in memory whole; beyond a million
// a user wants the files, which --all-rows streams (Note [Rows spooled to
// disk]).
inline constexpr std::size_t kMaxTopRows = 1'000'000;
// --rank-by dsr replays each kept row on the CPU for its metrics.
inline constexpr std::size_t kMaxDeflatedTopRows = 1'000;

struct SweepRequest {
    StrategyChoice strategy;
    AccountChoice account;
    MarketChoice market;
    // A market already loaded (Python's btforge.Market); `market` is then
    // not read.
    std::shared_ptr<const LoadedMarket> loaded_market;
    WindowChoice window;
    BackendChoice backend;
    std::string rank_by = "sharpe";
    int min_trades = kDefaultMinTrades;  // Note [Rows with few trades]
    long long top_n = 20;
    int threads = 0;
    bool all_rows = false;
    std::filesystem::path spool_directory = ".";  // --all-rows: where the rows wait (beside the outputs)
    int periods = -1;  // -1: 16 when pbo, walk_forward or dsr asks for them, else 0
    bool pbo = false;
    std::string pbo_backend = "auto";
    std::string walk_forward;  // "" or anchored[:K] / rolling:K
    std::string cpcv;          // "" or K[:E] (Note [Combinatorial purged cross-validation])
    // Note [Reality Check, SPA and StepM]: "" or B[:L], the bootstrap's
    // resamples and mean block; over return streams of `returns` parts of
    // the window (-1: 256, or the window's bars when fewer), or with
    // daily_returns of its UTC days (Note [Equity marks at UTC days]), from
    // seed spa_seed, StepM at size spa_size.
    std::string spa;
    int returns = -1;
    bool daily_returns = false;  // --returns daily; then returns stays -1
    unsigned long long spa_seed = 0;
    double spa_size = 0.05;
    std::string spa_benchmark = "cash";  // or "hold" (Note [Buy-and-hold benchmark])
    std::string shard;         // "" or "i/N" (Note [Shards])
    bool intrabar_bounds = false;  // Note [Bounds of the order inside a bar]
};

// Note [Shards]
// `--shard i/N` (0 <= i < N <= kMaxShards) runs the i-th of N contiguous
// parts of the run order: floor(count/N) ordinals each, one more for the
// first count % N (shard_ordinals). Every combination costs the same cells
// (bars x symbols), so equal counts are equal work. N is bounded by a
// constant, not by the combination count: an MPI run needs a shard per rank
// however small the grid, so shards beyond the count are empty. A shard
// keeps its top rows (or every row), the period statistics of all its
// combinations and, with return streams (--spa or --returns), their equity
// marks, and writes them with
// the run's identity to OUTPUT.shard (Note [Shard files] says what a reader
// checks of one file). `btforge
// merge` checks that the shards are one run's (equal identities), all there
// (naming the first few missing and how many), none twice; that the spec
// and the grid it loads again are the ones the identity hashed (a grid
// edited since, same count and other values, would relabel every row: it is
// refused, and merge stays the command it was, needing the run's spec and
// grid as they were); and that each row is one of its shard's own
// combinations, once (CombinationSpace::ordinal_of, which inverts a random
// grid's permutation). Then it writes what one process writes: the rows
// ranked by the same total order (Note [Deterministic ranking]), the
// validation over the union of the period statistics. MPI's rank 0 and
// --checkpoint read shards through the same reader and merge. Shards run on
// every engine (cpu, emu, cuda: the same bits, by parity); --rank-by dsr,
// which replays rows on the market, is refused.
// ShardRange, shard_ordinals and kMaxShards are in host/report/shard_file.h.
std::optional<ShardRange> parse_shard(const std::string& text, std::string* why);

// The request's options as check_sweep_request resolved them.
struct CheckedSweepRequest {
    SweepRequest request;  // threads and periods resolved
    const MetricColumn* metric = nullptr;  // what the sweep ranks by (sharpe for dsr)
    bool rank_by_dsr = false;
    std::optional<WalkForwardPlan> walk_forward_plan;
    std::optional<PurgedCvPlan> cpcv_plan;
    std::optional<BootstrapText> spa_plan;
    bool return_streams = false;  // keeps_return_streams: equity marks kept and clustered
    std::optional<WalkForwardScore> walk_forward_metric;
    std::optional<ShardRange> shard;

    // What the rows are ranked by (Note [Deterministic ranking]).
    RankOrder rank_order() const { return RankOrder{metric, request.min_trades}; }
};

// Every check of the options that needs no file: a UsageError
// named by the command line's option.
CheckedSweepRequest check_sweep_request(SweepRequest request);

// What a run reports while it works. `stage` says which counter moves.
struct SweepProgress {
    // kValidationScans: the CSCV's and the CPCV's scans of every combination,
    // and the SPA's first bootstrap pass.
    enum Stage : int { kPreparing = 0, kSweeping = 1, kValidationScans = 2, kDone = 3 };
    std::atomic<int> stage{kPreparing};
    std::atomic<std::uint64_t> done{0};
    std::atomic<std::uint64_t> total{0};
};

struct SweepRun;

struct SweepHooks {
    // The run header (Note [Run header]) once it is known, before the sweep.
    std::function<void(const std::string&)> header;
    SweepProgress* progress = nullptr;          // optional
    const std::atomic<bool>* cancel = nullptr;  // optional: stops the run (SweepRun::cancelled)
    bool progress_on_stderr = false;            // ProgressReporter lines (the command line)
    // A line for the user that is neither a result nor an error: a GPU
    // that cannot be used and the CPU that runs instead, the kernel a JIT
    // built. The command line prints it on stderr. Empty: not said.
    std::function<void(const std::string&)> notice;
    // A shard's run (Note [Shards]): called once the run is loaded and its
    // identity known, before the sweep; returning true ends run_sweep there
    // with SweepRun::resumed set (the shard is had already: Note [Resuming
    // an MPI run]). Empty: always run.
    std::function<bool(const SweepRun&)> resume;
};

// Everything a finished sweep is. Not movable: the space refers to the spec
// and the grid, the job to the market.
struct SweepRun {
    SweepRun() = default;
    SweepRun(const SweepRun&) = delete;
    SweepRun& operator=(const SweepRun&) = delete;

    LoadedStrategy strategy;
    std::optional<Grid> grid;
    std::optional<CombinationSpace> space;
    std::shared_ptr<const LoadedMarket> market;
    MarketWindow window;
    AccountSpec account;
    RunAssumptions assumptions;
    std::string header;  // as given to SweepHooks::header
    SweepOutcome outcome;
    std::unique_ptr<RowSpool> spool;  // all_rows only, ranked
    std::optional<SweepValidation> validation;
    // --intrabar-bounds: the kept rows under each order (Note [Bounds of the
    // order inside a bar]), in rank order.
    std::vector<OrderBounds> order_bounds;
    PeriodSpans spans;
    double bars_per_year = 0.0;
    std::vector<double> benchmark_marks;  // --spa-benchmark hold (Note [Buy-and-hold benchmark])
    int return_days = 0;  // --returns daily: the parts, the window's UTC days (Note [Equity marks at UTC days])
    RunSummary summary;
    // --shard: the ordinals it ran, and what makes two shards one run's.
    std::uint64_t first_ordinal = 0;
    std::uint64_t end_ordinal = 0;
    nlohmann::json identity;
    // True when SweepHooks::cancel stopped it (nothing else is meaningful);
    // `cancelled_while` says during what, for the message.
    bool cancelled = false;
    std::string cancelled_while;
    // True when SweepHooks::resume took the shard (only the loading and
    // `identity` are meaningful).
    bool resumed = false;

    // The rows the result files hold, best first: every row with all_rows,
    // else the top.
    const RankedRows& ranked() const;
    // Note [Distinct outcomes]: which combinations share an outcome, the top
    // rows' described. Not made for a shard (its merge makes it).
    std::optional<OutcomeIndex> outcomes;

private:
    std::optional<RowsInMemory> top_rows_;
    friend std::unique_ptr<SweepRun> run_sweep(const CheckedSweepRequest&, const SweepHooks&);
};

// The validation of a finished sweep (Note [Validation of a sweep]) from the
// period statistics of every combination in run order; `top_rows` are the
// rows to deflate, best first. Reports progress and obeys the cancel flag
// of `hooks`; `overfitting` runs the CSCV on a GPU when set. `marks`: the
// equity marks of every combination in run order, which --spa resamples.
struct SweepEquityMarks {
    std::span<const double> values;
    int per_combination = 0;  // Note [Equity marks]
    double initial_equity = 0.0;
    std::span<const double> benchmark;  // --spa-benchmark hold's marks; empty: cash
};
SweepValidation validate_rows(const CheckedSweepRequest& request, std::span<const PeriodStatistics> periods,
                              std::uint64_t combinations, std::vector<SweepRowRef> top_rows,
                              const std::function<OverfittingReport(std::span<const PeriodStatistics>, int,
                                                                    const OverfittingOptions&)>& overfitting,
                              const BootstrapScanFactory& bootstrap, const SweepHooks& hooks,
                              const SweepEquityMarks& marks = {});

// Where each of `ids` ran in `space` (its ordinal: the index of its period
// statistics).
std::vector<SweepRowRef> rows_of(const CombinationSpace& space, const std::vector<std::uint64_t>& ids);

// The files a sweep reads, named by their options: no output may be one.
std::vector<NamedFile> input_files(const SweepRequest& request);

// The result files of a sweep, which `btforge sweep` and `btforge merge`
// write alike: OUTPUT.csv and OUTPUT.json, OUTPUT.validation.json when the
// run keeps period statistics, OUTPUT.walkforward.csv with a walk-forward.
std::vector<NamedFile> result_files(const std::string& output, const CheckedSweepRequest& request);
// Writes them, in result_files' order, to the transaction's streams.
void write_result_files(OutputTransaction& outputs, const RunSummary& summary, const StrategySpec& spec,
                        const CombinationSpace& space, const RankedRows& rows, const OutcomeIndex& outcomes,
                        const std::optional<SweepValidation>& validation, const PeriodSpans& spans,
                        double bars_per_year);
// "results (20 rows ranked by sharpe): OUT.csv, OUT.json, ..."
std::string describe_result_files(const std::string& output, const CheckedSweepRequest& request, std::uint64_t rows);

// The shard file of a --shard run (Note [Shard files]); the run's rows and
// period statistics move into it (a million combinations' are about 2 GB).
ShardFile make_shard_file(SweepRun& run, const CheckedSweepRequest& request);

// Loads the strategy, grid and market, runs the sweep on the chosen backend,
// validates it (periods, PBO, walk-forward, deflated Sharpe) and ranks the
// rows. Throws what the loaders throw (DataError, SpecError, usage errors).
std::unique_ptr<SweepRun> run_sweep(const CheckedSweepRequest& request, const SweepHooks& hooks);

}  // namespace btforge
