#include "host/app/shard_merge.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

#include "host/app/output_files.h"
#include "host/app/run_identity.h"
#include "host/app/run_inputs.h"
#include "host/app/usage_error.h"
#include "host/engine/top_outcomes.h"

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
    request.cpcv = run.cpcv;
    request.spa = run.spa;
    request.returns = run.returns;
    request.daily_returns = run.return_days > 0;
    request.spa_seed = run.spa_seed;
    request.spa_size = run.spa_size;
    request.spa_benchmark = run.spa_benchmark;
    request.threads = threads;
    try {
        return check_sweep_request(request);
    } catch (const UsageError& e) {
        // Options the shard's own run would have refused.
        throw std::runtime_error(shard.name + ": its identity's options are not a sweep's: " + e.what());
    }
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::unique_ptr<MergedSweep> merge_shards(std::vector<NamedShard>& shards, const CheckedSweepRequest& checked,
                                          const OverfittingBackend& cscv, const std::string& what,
                                          const SweepHooks& hooks) {
    const SweepRequest& request = checked.request;
    const ShardFile& head = shards.front().content;
    auto merged = std::make_unique<MergedSweep>();
    merged->request = checked;
    merged->shards = shards.size();
    merged->strategy = load_strategy(request.strategy);
    const StrategySpec& spec = merged->strategy.spec;
    merged->grid = load_grid(request.strategy, spec);
    merged->space.emplace(spec, *merged->grid);
    const CombinationSpace& space = *merged->space;
    check_shards_ran(shards, merged->strategy.spec_text, spec.origin, *merged->grid, space);

    const auto merge_started = std::chrono::steady_clock::now();
    // Rows: the same total order as one process (Note [Deterministic
    // ranking]), one per outcome unless every row is asked for (Note
    // [Distinct outcomes]); each row's key is its shard's for its ordinal
    // (check_shards_ran found every row in its shard's range).
    std::uint64_t kept = 0;
    for (const NamedShard& shard : shards) kept += shard.content.rows.size();
    TopN every_row(checked.rank_order(), request.all_rows ? static_cast<std::size_t>(kept) : 0);
    TopOutcomes top(checked.rank_order(), static_cast<std::size_t>(request.top_n));
    // The period statistics and outcome keys of every shard in run order,
    // each shard's let go once copied: the merge holds them once, plus one
    // shard's.
    std::size_t period_count = 0;
    for (const NamedShard& shard : shards) period_count += shard.content.periods.size();
    std::vector<PeriodStatistics> periods;
    periods.reserve(period_count);
    std::vector<OutcomeKey> outcomes;
    outcomes.reserve(space.count());
    // Note [Equity marks]: every combination's, in run order, for --spa.
    const int marks_per_combination = head.equity_marks_per_combination();
    std::vector<double> marks;
    marks.reserve(space.count() * static_cast<std::size_t>(marks_per_combination));
    for (NamedShard& shard : shards) {
        const ShardFile& part = shard.content;
        for (const ResultRow& row : part.rows) {
            if (request.all_rows) every_row.offer(row);
            top.offer(row, part.outcomes[*space.ordinal_of(row.combination_id) - part.first_ordinal]);
        }
        periods.insert(periods.end(), part.periods.begin(), part.periods.end());
        outcomes.insert(outcomes.end(), part.outcomes.begin(), part.outcomes.end());
        marks.insert(marks.end(), part.equity_marks.begin(), part.equity_marks.end());
        std::vector<PeriodStatistics>().swap(shard.content.periods);
        std::vector<OutcomeKey>().swap(shard.content.outcomes);
        std::vector<double>().swap(shard.content.equity_marks);
    }
    merged->top = top.sorted_rows();
    merged->ranked = request.all_rows ? every_row.sorted() : merged->top;
    merged->outcomes.emplace(space, 0, outcomes);
    std::vector<OutcomeKey>().swap(outcomes);
    merged->outcomes->describe(merged->top);
    merged->merge_seconds = seconds_since(merge_started);

    merged->spans = head.spans;
    merged->bars_per_year = head.bars_per_year;
    if (request.periods > 0) {
        std::vector<std::uint64_t> ids;
        for (std::size_t i = 0; i < std::min<std::size_t>(merged->top.size(), 10); ++i) {
            ids.push_back(merged->top[i].combination_id);
        }
        const auto validation_started = std::chrono::steady_clock::now();
        merged->validation = validate_rows(checked, periods, space.count(), rows_of(space, ids), cscv.run,
                                           cscv.bootstrap, hooks,
                                           SweepEquityMarks{marks, marks_per_combination,
                                                            head.run.account.initial_equity,
                                                            head.run.benchmark_marks});
        merged->validation_seconds = seconds_since(validation_started);
        if (merged->validation->cancelled()) {
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
    summary.distinct_outcomes = merged->outcomes->distinct();
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

std::unique_ptr<MergedSweep> merge_and_write(std::vector<NamedShard> shards, const CheckedSweepRequest& request,
                                             const OverfittingBackend& cscv, const std::string& what,
                                             OutputTransaction& outputs, const SweepHooks& hooks) {
    std::unique_ptr<MergedSweep> merged = merge_shards(shards, request, cscv, what, hooks);
    if (merged->cancelled) return merged;
    write_result_files(outputs, merged->summary, merged->strategy.spec, *merged->space, RowsInMemory(merged->ranked),
                       *merged->outcomes,
                       merged->validation, merged->spans, merged->bars_per_year);
    outputs.commit();  // Note [Outputs committed together]
    return merged;
}

std::unique_ptr<MergedSweep> run_merge(const MergeRequest& r, const SweepHooks& hooks) {
    if (r.files.empty()) throw UsageError("give the shard files (OUTPUT.shard of each btforge sweep --shard i/N)");
    if (r.output.empty() || r.output.back() == '/') {
        throw UsageError("--output '" + r.output + "': expected a file name without extension");
    }
    check_pbo_backend_name(r.pbo_backend);
    std::vector<NamedShard> loaded;
    for (const std::string& file : r.files) loaded.push_back({file, read_shard_file(file)});
    std::vector<NamedShard> shards = check_shards(std::move(loaded));
    const CheckedSweepRequest checked = request_of_shards(shards.front(), r.threads);
    OverfittingBackend cscv;
    if (checked.request.pbo) {
        cscv = resolve_overfitting_backend(r.pbo_backend, r.gpu);
        if (!cscv.fallback.empty() && hooks.notice) {
            hooks.notice("no usable GPU for the CSCV (" + cscv.fallback + "); it runs on " +
                         thread_count_text(checked.request.threads));
        }
    }
    std::vector<NamedFile> inputs;
    for (const std::string& file : r.files) inputs.push_back({"SHARD", file});
    OutputTransaction outputs = open_outputs(result_files(r.output, checked), inputs, hooks.cancel);
    const std::string what = std::to_string(shards.size()) + " shards merged";
    return merge_and_write(std::move(shards), checked, cscv, what, outputs, hooks);
}

}  // namespace btforge
