#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/cli/sweep_run.h"
#include "host/report/shard_file.h"

namespace btforge {

// A shard and what to call it in errors: its file, or where it came from
// ("rank 2's shard 5/16").
struct NamedShard {
    std::string name;
    ShardFile content;
};

// Note [Shards]: the shards of one run (their identities equal), each once,
// covering the run order. Returns them sorted by index; throws
// std::runtime_error naming the shards at fault.
std::vector<NamedShard> check_shards(std::vector<NamedShard> shards);

// The request the shards ran, again, from their identity and inputs;
// `threads` for the validation. Throws the request's usage errors.
CheckedSweepRequest request_of_shards(const NamedShard& shard, int threads);

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
};

// Merges checked shards. Refuses a spec or grid that changed since the
// shards ran. `what` heads the summary's backend ("4 shards merged").
std::unique_ptr<MergedSweep> merge_shards(const std::vector<NamedShard>& shards, const CheckedSweepRequest& request,
                                          const std::string& what, const SweepHooks& hooks);

// The result files of the merged run, in result_files' order.
void write_merged(OutputTransaction& outputs, const MergedSweep& merged);
// The ranked table, the validation and the result files, as btforge sweep
// prints them.
std::string format_merged(const MergedSweep& merged, const CheckedSweepRequest& request, const std::string& output);

}  // namespace btforge
