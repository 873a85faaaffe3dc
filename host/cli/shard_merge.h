#pragma once

#include <string>
#include <vector>

#include "host/cli/sweep_run.h"
#include "host/report/shard_file.h"

namespace btforge {

// The request the shards ran, again, from their identity and inputs;
// `threads` for the validation. Throws std::runtime_error naming the shard
// when its options are not a sweep's (NamedShard, check_shards: host/report/
// shard_file.h).
CheckedSweepRequest request_of_shards(const NamedShard& shard, int threads);

// Merges checked shards as one process would have ranked and validated
// them (check_shards_ran: refusing a spec or grid changed since they ran,
// a row that is not one of its shard's combinations), writes the result
// files to `outputs` (opened by the caller before the work: Note [Outputs
// checked before work]) and prints what btforge sweep prints. An interrupted
// validation writes nothing and is said as `command`'s. Returns the exit
// code. With --pbo the CSCV runs on `cscv` (Note [CSCV of a merge]).
int merge_and_write(std::vector<NamedShard> shards, const CheckedSweepRequest& request,
                    const OverfittingBackend& cscv, const std::string& what, OutputTransaction& outputs,
                    const std::string& output, const std::string& command);

}  // namespace btforge
