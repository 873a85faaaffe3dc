#pragma once

#include <atomic>
#include <cstdint>
#include <ostream>
#include <filesystem>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "host/io/output_transaction.h"

namespace btforge {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInterrupted = 130;

// Parses a subcommand's arguments. Returns false when --help was asked (the
// help has been printed); throws boost::program_options::error on bad usage,
// an argument that is not an option included (none takes positional ones).
// `given`, when not null, receives the parsed map (to ask what was given).
// `operands`, when not null, receives the arguments that are not options
// (a command that takes files), instead of refusing them.
bool parse_command_line(const std::vector<std::string>& args, const std::string& usage,
                        const boost::program_options::options_description& options,
                        boost::program_options::variables_map* given = nullptr,
                        std::vector<std::string>* operands = nullptr);

// Note [Unsigned options]
// Boost.Program_options reads "-1" for an unsigned option through
// lexical_cast, which wraps it to 2^64 - 1: `replay --combination -1` spoke
// of combination 18446744073709551615. An option whose value is a count or
// an id holds a WholeNumber instead, read by validate() below: decimal
// digits only, within the type, or a usage error naming the option's value.
struct WholeNumber {
    std::uint64_t value = 0;
};
void validate(boost::any& out, const std::vector<std::string>& values, WholeNumber*, int);
std::ostream& operator<<(std::ostream& out, const WholeNumber& number);

// An option that stores a whole number into `*target` (an unsigned type),
// read as a WholeNumber, with *target as its default.
template <class T>
boost::program_options::typed_value<WholeNumber>* whole_number_value(T* target) {
    return boost::program_options::value<WholeNumber>()
        ->default_value(WholeNumber{static_cast<std::uint64_t>(*target)}, std::to_string(*target))
        ->notifier([target](const WholeNumber& number) { *target = static_cast<T>(number.value); });
}

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
// Throws a usage error outside 0..kMaxThreads.
int resolve_threads(int requested);

// A file a command reads or writes, with the option that names it.
struct NamedFile {
    std::string option;  // "--data", "--output", ...
    std::filesystem::path path;
};

// Note [Outputs checked before work]
// Every file a command will write is checked, as a usage error (exit 2),
// before any work: its name is not empty and not a directory, no two outputs
// are the same file, no output is one of the inputs (`--data res.csv -o res`
// would overwrite the data), and its temporary can be created now, which
// proves the directory exists and is writable (Note [No half-written
// outputs]). The returned transaction commits them together (Note [Outputs
// committed together]); `cancel` is the interrupt flag.
OutputTransaction open_outputs(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs,
                               const std::atomic<bool>* cancel);

}  // namespace btforge
