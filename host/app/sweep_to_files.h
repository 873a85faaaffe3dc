#pragma once

#include <memory>
#include <string>

#include "host/app/sweep_run.h"

namespace btforge {

// Note [A sweep and its files]
// What `btforge sweep -o OUTPUT` does besides printing is one call of the
// application layer, as `btforge merge` is (run_merge): the output name
// checked, the files opened before any work (Note [Outputs checked before
// work]: OUTPUT.shard for a shard, Note [Shards]; else the result files of
// result_files), the sweep run with its spool beside them, and the files
// written and committed together (Note [Outputs committed together]). A
// run the hooks cancelled writes nothing and returns with `cancelled` set.
// The front end prints the table and the summary from the run it returns.
std::unique_ptr<SweepRun> run_sweep_to_files(CheckedSweepRequest checked, const std::string& output,
                                             const SweepHooks& hooks);

}  // namespace btforge
