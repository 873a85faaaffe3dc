#include "host/cli/shard_merge.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>

#include "host/cli/command_line.h"
#include "host/cli/interrupt.h"
#include "host/cli/run_identity.h"
#include "host/cli/run_inputs.h"

namespace btforge {

CheckedSweepRequest request_of_shards(const NamedShard& shard, int threads) {
    const ShardRun& run = shard.content.run;
    SweepRequest request;
    request.strategy = run_inputs_from_json(shard.content.summary.inputs, shard.name).strategy;  // Note [Inputs of a run]
    request.rank_by = run.rank_by;
    request.min_trades = run.min_trades;
    request.top_n = run.top;
    request.all_rows = run.all_rows;
    request.periods = run.periods;
    request.pbo = run.pbo;
    request.walk_forward = run.walk_forward;
    request.threads = threads;
    try {
        return check_sweep_request(request);
    } catch (const boost::program_options::error& e) {
        // Options the shard's own run would have refused.
        throw std::runtime_error(shard.name + ": its identity's options are not a sweep's: " + e.what());
    }
}

namespace {

// What one process would have: the rows ranked by the same total order
// (Note [Deterministic ranking]), the validation over the union of the
// period statistics, the summary. Not movable (the space refers to the spec
// and the grid).
struct MergedSweep {
    MergedSweep() = default;
    MergedSweep(const MergedSweep&) = delete;
    MergedSweep& operator=(const MergedSweep&) = delete;

    LoadedStrategy strategy;
    std::optional<Grid> grid;
    std::optional<CombinationSpace> space;
    std::vector<ResultRow> ranked;
    std::optional<SweepValidation> validation;
    PeriodSpans spans;
    double bars_per_year = 0.0;
    RunSummary summary;
    std::uint64_t shards = 0;
    bool cancelled = false;  // the validation was interrupted (hooks.cancel)
    double merge_seconds = 0.0;       // the rows ranked, the period statistics put together
    double validation_seconds = 0.0;  // validate_rows
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::unique_ptr<MergedSweep> merge_shards(std::vector<NamedShard>& shards, const CheckedSweepRequest& checked,
                                          const OverfittingBackend& cscv, const std::string& what,
                                          const SweepHooks& hooks) {
    const SweepRequest& request = checked.request;
    const ShardFile& head = shards.front().content;
    auto merged = std::make_unique<MergedSweep>();
    merged->shards = shards.size();
    merged->strategy = load_strategy(request.strategy);
    const StrategySpec& spec = merged->strategy.spec;
    merged->grid = load_grid(request.strategy, spec);
    merged->space.emplace(spec, *merged->grid);
    const CombinationSpace& space = *merged->space;
    check_shards_ran(shards, merged->strategy.spec_text, spec.origin, *merged->grid, space);

    const auto merge_started = std::chrono::steady_clock::now();
    // Rows: the same total order as one process (Note [Deterministic ranking]).
    std::uint64_t kept = 0;
    for (const NamedShard& shard : shards) kept += shard.content.rows.size();
    TopN top(checked.rank_order(), request.all_rows ? static_cast<std::size_t>(kept) : static_cast<std::size_t>(request.top_n));
    // The period statistics of every shard in run order, each shard's let go
    // once copied: the merge holds them once, plus one shard's.
    std::size_t period_count = 0;
    for (const NamedShard& shard : shards) period_count += shard.content.periods.size();
    std::vector<PeriodStatistics> periods;
    periods.reserve(period_count);
    for (NamedShard& shard : shards) {
        for (const ResultRow& row : shard.content.rows) top.offer(row);
        periods.insert(periods.end(), shard.content.periods.begin(), shard.content.periods.end());
        std::vector<PeriodStatistics>().swap(shard.content.periods);
    }
    merged->ranked = top.sorted();
    merged->merge_seconds = seconds_since(merge_started);

    merged->spans = head.spans;
    merged->bars_per_year = head.bars_per_year;
    if (request.periods > 0) {
        std::vector<std::uint64_t> ids;
        for (std::size_t i = 0; i < std::min<std::size_t>(merged->ranked.size(), 10); ++i) {
            ids.push_back(merged->ranked[i].combination_id);
        }
        const auto validation_started = std::chrono::steady_clock::now();
        merged->validation = validate_rows(checked, periods, space.count(), rows_of(space, ids), cscv.run, hooks);
        merged->validation_seconds = seconds_since(validation_started);
        if (merged->validation->pbo && merged->validation->pbo->cancelled) {
            merged->cancelled = true;
            return merged;
        }
    }

    // Shard 0's summary, with the counts of all (read_shard_bytes checked
    // each; their sums are checked here).
    RunSummary& summary = merged->summary;
    summary = head.summary;
    summary.strategy = spec.name;
    summary.combinations = space.count();
    summary.invalid_rows = 0;
    summary.cells = 0;
    summary.seconds = 0.0;
    for (const NamedShard& shard : shards) {
        const RunSummary& part = shard.content.summary;
        summary.invalid_rows += part.invalid_rows;  // each at most its shard's combinations
        if (__builtin_add_overflow(summary.cells, part.cells, &summary.cells)) {
            throw std::runtime_error(shard.name + ": its header's /summary/cells make more cells than a count holds");
        }
        summary.seconds += part.seconds;
    }
    summary.backend = what + "; shard 0 ran on " + head.summary.backend;
    summary.rank_by = request.rank_by;
    summary.identity = inputs_identity_of(head.identity);  // Note [Identity of a run's inputs]
    summary.min_trades = request.min_trades;
    return merged;
}

}  // namespace

int merge_and_write(std::vector<NamedShard> shards, const CheckedSweepRequest& request,
                    const OverfittingBackend& cscv, const std::string& what, OutputTransaction& outputs,
                    const std::string& output, const std::string& command) {
    SweepHooks hooks;
    hooks.cancel = &interrupt_requested();
    hooks.progress_on_stderr = true;
    const std::unique_ptr<MergedSweep> merged = merge_shards(shards, request, cscv, what, hooks);
    if (merged->cancelled) {
        std::cerr << command << ": interrupted while computing the probability of backtest overfitting; no result "
                  << "file written\n";
        return kExitInterrupted;
    }
    // Where a merge's time goes (issue 30: the merge is rank 0's share of an
    // MPI run's time).
    std::cerr << command << ": " << merged->shards << (merged->shards == 1 ? " shard's" : " shards'")
              << " rows and period statistics merged in " << merged->merge_seconds << " s"
              << (merged->validation ? ", validated in " + std::to_string(merged->validation_seconds) + " s" : "")
              << "\n";
    const StrategySpec& spec = merged->strategy.spec;
    const CombinationSpace& space = *merged->space;
    write_result_files(outputs, merged->summary, spec, space, RowsInMemory(merged->ranked), merged->validation,
                       merged->spans, merged->bars_per_year);
    outputs.commit();  // Note [Outputs committed together]
    std::cout << format_ranked_table(spec, space, merged->ranked, request.rank_order(),
                                     static_cast<std::size_t>(request.request.top_n));
    std::cout << "\n" << merged->summary.backend << ": " << merged->summary.combinations << " combinations, "
              << merged->summary.cells << " cells in " << merged->summary.seconds << " s of the shards' sweeps\n";
    if (merged->validation) {
        std::cout << format_validation(*merged->validation, spec, space, merged->spans, merged->bars_per_year);
    }
    std::cout << describe_result_files(output, request, merged->ranked.size());
    if (merged->summary.synthetic_market) std::cout << kSyntheticMarketNote << "\n";  // Note [Synthetic market said plainly]
    return kExitOk;
}

}  // namespace btforge
