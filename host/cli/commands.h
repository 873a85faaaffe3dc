#pragma once

#include <string>
#include <vector>

namespace btforge {

// Each subcommand takes the arguments after its name and returns the exit
// status: 0 success, 1 bad input or failure, 2 usage error, 130 interrupted.
int run_sweep_command(const std::vector<std::string>& args);
int run_replay_command(const std::vector<std::string>& args);
int run_indicators_command(const std::vector<std::string>& args);
int run_data_command(const std::vector<std::string>& args);
int run_bench_command(const std::vector<std::string>& args);
int run_devices_command(const std::vector<std::string>& args);
int run_parity_command(const std::vector<std::string>& args);
int run_strategies_command(const std::vector<std::string>& args);
int run_merge_command(const std::vector<std::string>& args);

}  // namespace btforge
