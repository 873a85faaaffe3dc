#pragma once

#include <filesystem>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/engine/top_n.h"
#include "reference/metrics/period_statistics.h"

namespace btforge {

// Note [Shard files]
// What `btforge sweep --shard i/N -o OUT` writes to OUT.shard for `btforge
// merge` (Note [Shards]): the magic "BTFSHARD", a format version (uint32),
// the byte length of a JSON header (uint64) and the header (the run's
// identity, the shard's index, count and ordinals, the run's inputs, its
// summary, the periods' spans), then the shard's kept rows and the period
// statistics of all its combinations in run order, as the engine holds
// them in memory (ResultRow, PeriodStatistics: doubles and integers of this
// machine's byte order; the header states both sizes, and a reader refuses
// a file whose sizes differ from its own). The file is written whole or
// not at all, like every output.
struct ShardFile {
    nlohmann::ordered_json header;
    std::vector<ResultRow> rows;
    std::vector<PeriodStatistics> periods;
};

void write_shard_file(std::ostream& out, const ShardFile& shard);

// Throws DataError (file, rule) for a file that is not a shard of this
// format: unreadable, wrong magic or version, sizes of another build,
// counts that do not match the bytes.
ShardFile read_shard_file(const std::filesystem::path& file);

}  // namespace btforge
