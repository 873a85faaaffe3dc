#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options/errors.hpp>
#include <nlohmann/json.hpp>

#include "host/app/usage_error.h"
#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/io/atomic_file.h"
#include "host/version/build_version.h"

namespace {

constexpr const char* kUsage =
    "Usage: btforge <command> [options]   (btforge <command> --help for its options)\n"
    "\n"
    "Commands:\n"
    "  sweep       run every combination of a grid on all CPU cores and rank them\n"
    "  replay      run one combination on the CPU reference: trade log, equity curve, metrics\n"
    "  indicators  compute an indicator of SPEC §5 on a market and write it as CSV\n"
    "  data synth  write the seeded synthetic market as CSV\n"
    "  data import turn exchange dumps (Binance klines, funding rates) or any CSV into btforge's CSV\n"
    "  bench       measure cells/s on a fixed synthetic workload: CPU 1 thread and all, and a backend\n"
    "  devices     list the CUDA devices and the GPU kernels this binary carries\n"
    "  parity      check a backend (emu: the generated kernels built for the host) against the reference\n"
    "  strategies  list the strategies this binary carries (--names: one name per line)\n"
    "  merge       put the shards of a sweep --shard i/N run together, exactly as one process\n"
    "\n"
    "Without --data every command uses the embedded synthetic market; without --spec/--grid\n"
    "the embedded default strategy and its quickstart grid.\n";

// A usage error, the parser's or the application layer's: exit 2.
int usage_failure(const std::string& command, const std::exception& e) {
    std::cerr << "btforge " << command << ": " << e.what() << "\n(see btforge " << command << " --help)\n";
    return btforge::kExitUsage;
}

}  // namespace

// Note [Messages, not library texts]
// What a user reads is a sentence of btforge's: every error of an input or a
// run is thrown with one (DataError, SpecError, usage errors). The standard
// library's own texts ("std::bad_alloc", "vector::_M_default_append") say
// nothing to a user, so those exceptions are caught by type and said in
// words; anything else that escapes is reported as btforge's own failure.
int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args.front() == "--help" || args.front() == "-h" || args.front() == "help") {
        std::cout << kUsage;
        return args.empty() ? btforge::kExitUsage : btforge::kExitOk;
    }
    if (args.front() == "--version") {
        std::cout << "btforge " << btforge::build_version() << " (commit " << btforge::build_commit() << ")\n";
        return btforge::kExitOk;
    }
    std::string command = args.front();
    args.erase(args.begin());
    try {
        if (command == "sweep") return btforge::run_sweep_command(args);
        if (command == "replay") return btforge::run_replay_command(args);
        if (command == "indicators") return btforge::run_indicators_command(args);
        if (command == "data") return btforge::run_data_command(args);
        if (command == "bench") return btforge::run_bench_command(args);
        if (command == "devices") return btforge::run_devices_command(args);
        if (command == "parity") return btforge::run_parity_command(args);
        if (command == "strategies") return btforge::run_strategies_command(args);
        if (command == "merge") return btforge::run_merge_command(args);
        std::cerr << "btforge: unknown command '" << command << "'\n\n" << kUsage;
        return btforge::kExitUsage;
    } catch (const boost::program_options::error& e) {
        return usage_failure(command, e);
    } catch (const btforge::UsageError& e) {
        return usage_failure(command, e);  // Note [Usage errors]: the application layer's, said as Boost's are
    } catch (const btforge::OutputCancelled& e) {
        std::cerr << "btforge " << command << ": " << e.what() << "; no result file written\n";
        return btforge::kExitInterrupted;
    } catch (const std::bad_alloc&) {
        // Note [Messages, not library texts]
        std::cerr << "btforge " << command
                  << ": error: out of memory: this run needs more memory than the machine gives it (fewer bars, "
                     "symbols or combinations, or a smaller --top); no result file written\n";
        return btforge::kExitFailure;
    } catch (const std::length_error&) {
        std::cerr << "btforge " << command
                  << ": error: an input asks for more elements than a container can hold (a size far beyond any "
                     "market or grid); no result file written\n";
        return btforge::kExitFailure;
    } catch (const nlohmann::json::exception& e) {
        std::cerr << "btforge " << command << ": internal error while handling JSON (" << e.what()
                  << "); please report it with the command line\n";
        return btforge::kExitFailure;
    } catch (const std::exception& e) {
        std::cerr << "btforge " << command << ": error: " << e.what() << '\n';
        return btforge::kExitFailure;
    }
}
