#pragma once

#include <filesystem>
#include <ostream>
#include <string>
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
// The file's bytes, for a shard that travels as a message (btforge sweep
// --mpi).
std::string shard_bytes(const ShardFile& shard);

// Throws DataError (file, rule) for a file that is not a shard of this
// format: unreadable, wrong magic or version, sizes of another build,
// counts that do not match the bytes.
ShardFile read_shard_file(const std::filesystem::path& file);
// The same from the bytes of a file or message called `name` in errors.
ShardFile read_shard_bytes(const std::string& name, const std::string& bytes);

// Of two runs' identities, the first key whose value differs ("" when none),
// for a refusal that names what differs.
std::string identity_difference(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b);

}  // namespace btforge
