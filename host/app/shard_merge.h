#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/app/sweep_run.h"
#include "host/report/shard_file.h"

namespace btforge {

// The request the shards ran, again, from their identity and inputs;
// `threads` for the validation. Throws std::runtime_error naming the shard
// when its options are not a sweep's (NamedShard, check_shards: host/report/
// shard_file.h).
CheckedSweepRequest request_of_shards(const NamedShard& shard, int threads);

// What one process would have: the rows ranked by the same total order
// (Note [Deterministic ranking]), the validation over the union of the
// period statistics, the summary. Not movable (the space refers to the spec
// and the grid).
struct MergedSweep {
    MergedSweep() = default;
    MergedSweep(const MergedSweep&) = delete;
    MergedSweep& operator=(const MergedSweep&) = delete;

    CheckedSweepRequest request;  // what the shards ran (request_of_shards)
    LoadedStrategy strategy;
    std::optional<Grid> grid;
    std::optional<CombinationSpace> space;
    std::vector<ResultRow> ranked;  // what the files hold: the top outcomes' rows, or every row
    std::vector<ResultRow> top;     // the top outcomes' rows (Note [Distinct outcomes])
    std::optional<OutcomeIndex> outcomes;
    std::optional<SweepValidation> validation;
    PeriodSpans spans;
    double bars_per_year = 0.0;
    RunSummary summary;
    std::uint64_t shards = 0;
    bool cancelled = false;  // the validation was interrupted (hooks.cancel): nothing written
    double merge_seconds = 0.0;       // the rows ranked, the period statistics put together
    double validation_seconds = 0.0;  // validate_rows
};

// Merges checked shards as one process would have ranked and validated
// them (check_shards_ran: refusing a spec or grid changed since they ran,
// a row that is not one of its shard's combinations) and writes the result
// files to `outputs` (opened by the caller before the work: Note [Outputs
// checked before work]), committed together. An interrupted validation
// (hooks.cancel) writes nothing: the result says `cancelled`. With --pbo
// the CSCV runs on `cscv` (Note [CSCV of a merge]).
std::unique_ptr<MergedSweep> merge_and_write(std::vector<NamedShard> shards, const CheckedSweepRequest& request,
                                             const OverfittingBackend& cscv, const std::string& what,
                                             OutputTransaction& outputs, const SweepHooks& hooks);

// `btforge merge SHARD... -o OUTPUT`.
struct MergeRequest {
    std::vector<std::string> files;
    std::string output = "btforge-sweep";
    int threads = 0;                  // of the validation
    std::string pbo_backend = "auto";
    BackendChoice gpu;                // Note [CSCV of a merge]: its device alone
};

// Reads and checks the shard files (Note [Shard files]), opens the outputs
// before the work, merges and writes them (merge_and_write). A GPU the
// CSCV cannot use is said through hooks.notice.
std::unique_ptr<MergedSweep> run_merge(const MergeRequest& request, const SweepHooks& hooks);

}  // namespace btforge
