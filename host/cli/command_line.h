#pragma once

#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace btforge {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInterrupted = 130;

// Parses a subcommand's arguments. Returns false when --help was asked (the
// help has been printed); throws boost::program_options::error on bad usage.
// `given`, when not null, receives the parsed map (to ask what was given).
bool parse_command_line(const std::vector<std::string>& args, const std::string& usage,
                        const boost::program_options::options_description& options,
                        boost::program_options::variables_map* given = nullptr);

// Number of threads to use: `requested`, or every hardware thread when 0.
int resolve_threads(int requested);

// Fails before long work starts when a result could not be written there.
void check_output_directory(const std::string& path);

}  // namespace btforge
