#pragma once

#include <string>

namespace btforge {

// More worker threads than this is a typo, not a machine.
inline constexpr int kMaxThreads = 4096;

// Note [Threads a process may use]
// "--threads 0" means every CPU this process may run on: its CPU affinity
// (taskset, a cgroup's cpuset, Slurm's binding, mpirun's --bind-to), not the
// machine's hardware threads. A process bound to one core that started a
// thread per hardware thread would time-slice them all on that core:
// Open MPI binds each rank to a core when it starts two or fewer, and rank
// 0's CSCV of such a run went on the CPU's threads of one core (issue 30).
int usable_cpu_count();

// "16 hardware threads", or "4 of 16 hardware threads usable (CPU
// affinity)" when this process is bound to fewer.
std::string hardware_threads_text();

// Number of threads to use: `requested`, or usable_cpu_count() when 0.
// Throws a UsageError outside 0..kMaxThreads.
int resolve_threads(int requested);

// "1 thread", "16 threads".
std::string thread_count_text(int threads);

}  // namespace btforge
