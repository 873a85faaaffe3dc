#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/engine/outcome_key.h"
#include "host/engine/top_n.h"
#include "host/report/results_writer.h"
#include "host/report/validation_writer.h"
#include "host/spec/combination_space.h"
#include "host/spec/grid.h"
#include "reference/metrics/period_statistics.h"

namespace btforge {

// Note [Shard files]
// What `btforge sweep --shard i/N -o OUT` writes to OUT.shard for `btforge
// merge` (Note [Shards]), what an MPI rank sends rank 0 and what
// --checkpoint keeps (Note [Resuming an MPI run]):
//   "BTFSHARD"                      magic, 8 bytes
//   version                         uint32, kShardFormatVersion
//   five sections, each as          its byte length (uint64), its bytes,
//                                   their SHA-256 (32 bytes)
//     header      JSON: the run's identity, the shard's index, count and
//                 ordinals, the run's inputs, the shard's summary, the
//                 periods' spans, the sizes of a row and of a period's
//                 statistics;
//     rows        the shard's kept rows (ResultRow): with --top, one per
//                 outcome of its best (Note [Distinct outcomes]);
//     periods     the period statistics of all its combinations in run
//                 order, what validation reads of them (ShardPeriod: Note
//                 [What a shard's periods carry]);
//     outcomes    the outcome key of each of its combinations in run order
//                 (OutcomeKey), which its engine hashed from the whole
//                 period statistics (so a reader cannot hash them again
//                 from the periods it carries; the digest guards them);
//     marks       the equity marks of each of its combinations in run
//                 order (doubles), as many per combination as the
//                 identity's --spa and --returns make of its window (Note
//                 [Equity marks]; none without either: keeps_return_streams).
// Rows and statistics are doubles and integers of this machine's byte
// order, without padding; a reader refuses a file whose row or statistics
// size differs from its own. The file is written whole or not at all, like
// every output. A reader believes nothing it has not checked, and checks
// everything before it allocates:
//   - the magic and the version (an older shard is named as such: run it
//     again);
//   - every section's length against the bytes that remain (the header at
//     most kMaxJsonDocumentBytes), every digest against its section, no
//     byte after the last; so a flipped bit, an edited number, a cut file
//     is refused naming the file and the section;
//   - the header through the checked JSON reader (Note [Checked JSON
//     documents]: depth, size, numbers, repeated keys), then every field
//     it reads for presence, type and range, every string of it free of
//     control characters (it is printed), and what follows from the
//     fields: index < count <= kMaxShards, the identity's shard count equal
//     to count, the ordinals those of shard_ordinals, as many spans as
//     periods, as many rows as --top or --all-rows keep of the shard's
//     combinations (with --top: as many as its distinct outcomes, up to
//     --top), period statistics for each of them, each period, a key and
//     the equity marks for each.
// Then check_shards checks a set (one run's, each once, all there, in run
// order) and check_shards_ran what needs the spec and grid (the ones the
// identity hashed, each row one of its shard's own combinations, once, and
// of its own outcome).
// Messages name the file (or message), the section or JSON pointer and a
// stable rule; no byte of the file that is not printable text is echoed.
// Version 8: each row's metrics carry magnified_bars (Note [Finer bars]) in
// what was version 7's padding. Version 7: each row's metrics carry
// ambiguous_bars (Note [Ambiguous bars]), 152 bytes instead of 144. Version 6: the marks section, and the identity's --spa, --returns,
// --spa-seed and --spa-size (Note [Reality Check, SPA and StepM]).
// Version 5: the outcomes section, and --top rows one per outcome (Note
// [Distinct outcomes]). Version 4: the identity names the run's --cpcv
// (Note [Combinatorial purged cross-validation]); version 3's lacked it.
inline constexpr std::uint32_t kShardFormatVersion = 8;

// Note [What a shard's periods carry]
// A shard's period statistics travel to one place, the merge's validation
// (Note [Validation of a sweep]): the CSCV, the walk-forward and the
// deflated Sharpe ratio read the return sums and their powers, the
// period's equity at both ends, its bars and its trades, nothing else. A
// shard carries those (64 bytes a period instead of PeriodStatistics' 112:
// a million combinations of 16 periods are 1.07 GB instead of 1.88 GB to
// write, hash, send, read and check). On reading, each becomes a
// PeriodStatistics whose other fields (max_drawdown, gross profit and
// loss, fees, funding) are NaN and whose wins are -1: values no period
// can have, so a reader that needs them fails loudly instead of believing
// a zero. Version 2 carried all of PeriodStatistics.
struct ShardPeriod {
    double return_sum;
    double return_sum_squares;
    double downside_sum_squares;
    double return_sum_cubes;
    double return_sum_fourths;
    double start_equity;
    double end_equity;
    int bars;
    int trades;
};
static_assert(sizeof(ShardPeriod) == 7 * sizeof(double) + 2 * sizeof(int), "ShardPeriod has no padding");
ShardPeriod shard_period(const PeriodStatistics& p);
PeriodStatistics period_from_shard(const ShardPeriod& p);

// Note [Shards]: at most this many shards in a run. merge takes every shard
// on one command line (Linux's 2 MiB of arguments hold about 100,000 file
// names), and rank 0 of an MPI run holds every shard. Not bounded by the
// combination count: shards beyond it are empty and legitimate (an MPI run
// needs a shard per rank, a job array may be sized before the grid is).
inline constexpr std::uint64_t kMaxShards = 100'000;

struct ShardRange {
    std::uint64_t index = 0;
    std::uint64_t count = 1;
};
// [first, end) of shard `range` in a run of `combinations` (Note [Shards]).
std::pair<std::uint64_t, std::uint64_t> shard_ordinals(const ShardRange& range, std::uint64_t combinations);

// The values of a run's identity that merge uses, typed; the reader fills
// them from ShardFile::identity, which alone is written.
struct ShardRun {
    std::string spec_sha256;
    std::string grid_sha256;
    std::uint64_t combinations = 0;
    int first_bar = 0;
    int bars = 0;
    AccountSpec account;
    std::string rank_by;
    int min_trades = 0;
    long long top = 0;
    bool all_rows = false;
    int periods = 0;
    bool pbo = false;
    std::string walk_forward;
    std::string cpcv;
    std::string spa;  // Note [Reality Check, SPA and StepM]: "" or B[:L]
    int returns = -1;
    int return_days = 0;  // --returns daily: its parts (Note [Equity marks at UTC days]); 0: not daily
    std::uint64_t spa_seed = 0;
    double spa_size = 0.05;
    // Note [Buy-and-hold benchmark]: "cash" (the identity names none) or
    // "hold", with the benchmark's marks.
    std::string spa_benchmark = "cash";
    std::vector<double> benchmark_marks;
};

struct ShardFile {
    nlohmann::json identity;  // Note [Shards]: equal for the shards of one run
    ShardRun run;             // read from `identity`
    ShardRange range;
    std::uint64_t first_ordinal = 0;
    std::uint64_t end_ordinal = 0;
    // The shard's own sweep: spec_origin, grid_origin, market, timestamps,
    // funding, backend, window.first_time and last_time, invalid_rows,
    // cells, seconds, inputs (Note [Inputs of a run]: the keys that load the
    // strategy and grid checked; merge reads them with run_inputs_from_json).
    // The reader fills the rest from the identity.
    RunSummary summary;
    PeriodSpans spans;
    double bars_per_year = 0.0;
    std::vector<ResultRow> rows;
    std::vector<PeriodStatistics> periods;
    std::vector<OutcomeKey> outcomes;  // one per combination, in run order
    std::vector<double> equity_marks;  // equity_marks_per_combination() per combination, in run order

    // Note [Equity marks]: what --spa and --returns make of the run's window
    // (0 without --spa).
    int equity_marks_per_combination() const;
};

void write_shard_file(std::ostream& out, const ShardFile& shard);
// The file's bytes, for a shard that travels as a message (btforge sweep
// --mpi).
std::string shard_bytes(const ShardFile& shard);

// Throws DataError (file, rule) for a file that is not a shard of this
// format or breaks a rule of Note [Shard files].
ShardFile read_shard_file(const std::filesystem::path& file);
// The same from the bytes of a file or message called `name` in errors.
ShardFile read_shard_bytes(const std::string& name, std::string_view bytes);
// A shard this process made (make_shard_file), as read_shard_bytes would
// read its bytes, without writing them: its header written and read back
// with every check, its rows moved and its period statistics reduced to
// what a shard carries (Note [What a shard's periods carry]), their counts
// checked (Note [Shards between ranks]).
ShardFile shard_in_memory(const std::string& name, ShardFile shard);

// A shard and what to call it in errors: its file, or where it came from
// ("rank 2's shard 5/16").
struct NamedShard {
    std::string name;
    ShardFile content;
};

// Note [Shards]: the shards of one run (their identities equal), each once,
// all there. Returns them sorted by index; throws std::runtime_error naming
// the shards at fault (the first few of the missing ones, and how many).
std::vector<NamedShard> check_shards(std::vector<NamedShard> shards);

// The grid's part of a run's identity: its axes' values, their conditions
// (Note [Conditional axes]) and its sampling.
std::string run_grid_sha256(const Grid& grid);

// Checks what the shards ran against the spec document and the grid loaded
// for the merge: they are the ones the identity hashed (else the rows
// would be labelled with other values), the grid has the run's count of
// combinations, and each row is one of its shard's own combinations (its
// ordinal in the shard's range: Note [Random combinations without
// materializing]), once. Throws std::runtime_error naming the shard.
void check_shards_ran(const std::vector<NamedShard>& shards, std::string_view spec_text, const std::string& spec_origin,
                      const Grid& grid, const CombinationSpace& space);

// Of two runs' identities, the first key whose value differs ("" when none),
// for a refusal that names what differs.
std::string identity_difference(const nlohmann::json& a, const nlohmann::json& b);
// "its KEY is A, not B", the values shortened and escaped for a message.
std::string describe_identity_difference(const nlohmann::json& have, const nlohmann::json& want);

}  // namespace btforge
