#pragma once

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

// Merges checked shards as one process would have ranked and validated
// them (refusing a spec or grid changed since they ran), writes the result files to
// `outputs` (opened by the caller before the work: Note [Outputs checked
// before work]) and prints what btforge sweep prints. An interrupted
// validation writes nothing and is said as `command`'s. Returns the exit
// code.
int merge_and_write(const std::vector<NamedShard>& shards, const CheckedSweepRequest& request,
                    const std::string& what, OutputTransaction& outputs, const std::string& output,
                    const std::string& command);

}  // namespace btforge
