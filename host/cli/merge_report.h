#pragma once

#include <string>

#include "host/app/shard_merge.h"

namespace btforge {

// Prints what `btforge sweep` prints for a merged sweep (`btforge merge`,
// rank 0 of `sweep --mpi`): the timing of the merge on stderr, the ranked
// table, the validation and the result files on stdout; an interrupted
// merge is said as `command`'s. Returns the exit code.
int report_merged(const MergedSweep& merged, const std::string& output, const std::string& command);

}  // namespace btforge
