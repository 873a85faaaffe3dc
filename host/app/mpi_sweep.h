#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "host/app/shard_merge.h"
#include "host/app/sweep_run.h"

namespace btforge {

// Note [Sweeps over MPI]
// `mpirun -n R btforge sweep --mpi ...`: every rank parses the same command
// line; the run is cut into N shards (--mpi-shards, default R; Note
// [Shards]) and rank r runs shards r, r + R, r + 2R, ... on its node's
// cores (--threads 0: the node's hardware threads shared among its ranks,
// at most the CPUs a rank may run on: Note [Threads a process may use])
// or GPU (Note [Ranks and their GPUs]). Each rank sends its shards, as
// shard-file bytes, to rank 0, which checks and merges them as `btforge
// merge` does and writes the one result set: byte for byte what one process
// writes. Nothing is written unless every shard arrived: a rank that fails
// reports its error to rank 0, which names the rank and writes nothing; a
// rank that dies ends the job through mpirun (Open MPI kills the other
// ranks and names the dead one), which again leaves no result file (Note
// [Outputs committed together]). The exchanges are two: an agreement after
// the set-up (options, outputs, market) so a mistake stops every rank before
// the work, and the reports after it.
//
// Note [Resuming an MPI run]
// With --checkpoint DIR each rank also writes each shard it completes to
// DIR/shard-I-of-N.shard (whole or not at all). A later run with the same
// options and DIR takes the shards it finds there instead of running them,
// after reading each as every shard is read (Note [Shard files]: its
// checksums, its counts) and checking that it is a shard of this run (its
// identity, its ordinals); one of another run or one changed since it was
// written is an error naming it, not a silent mix, and rank 0 checks its
// rows as merge does (Note [Shards]). More shards than ranks (--mpi-shards)
// make the unit of lost work smaller. DIR must be reachable from the rank that owns a shard (shard i:
// rank i mod R); a shard a rank cannot see is run again, which costs time,
// not correctness.
struct MpiSweepOptions {
    bool enabled = false;       // --mpi
    std::uint64_t shards = 0;   // --mpi-shards (0: one per rank)
    std::string checkpoint;     // --checkpoint DIR ("" none)
};

// What only the front end of an MPI sweep knows.
struct MpiFrontEnd {
    // Called once MPI is up on this rank: the command line installs its
    // Ctrl-C handler there, after the MPI library's own.
    std::function<void()> mpi_started;
    const std::atomic<bool>* cancel = nullptr;  // stops the run (SweepHooks::cancel)
    std::function<void(const std::string&)> notice;  // SweepHooks::notice, and the job's own lines
    std::function<void(const std::string&)> header;  // rank 0's run header (SweepHooks::header)
};

struct MpiSweepResult {
    // False on every rank but 0 (Note [Rank 0 speaks for the job]).
    bool rank0 = false;
    bool interrupted = false;  // rank 0: nothing written
    std::unique_ptr<MergedSweep> merged;  // rank 0, not interrupted: what it wrote
    std::uint64_t shards = 0;
    std::uint64_t resumed = 0;  // shards taken from --checkpoint
};

// Runs this process's part of an MPI sweep; rank 0 merges and writes
// OUTPUT.* (the front end prints what `btforge sweep` prints from `merged`).
// `device_chosen`: --device or --devices was given (else Note [Ranks and
// their GPUs]). Rank 0 throws the errors the front end reports.
MpiSweepResult run_mpi_sweep(SweepRequest request, const std::string& output, const MpiSweepOptions& mpi,
                             bool device_chosen, const MpiFrontEnd& front);

}  // namespace btforge
