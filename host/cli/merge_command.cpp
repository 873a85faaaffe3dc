#include <iostream>

#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/interrupt.h"
#include "host/cli/merge_report.h"

namespace btforge {

namespace po = boost::program_options;

int run_merge_command(const std::vector<std::string>& args) {
    MergeRequest request;
    BackendChoice& gpu = request.gpu;  // Note [CSCV of a merge]: --device only
    po::options_description options("Merge");
    options.add_options()
        ("output,o", po::value(&request.output)->default_value(request.output), "results go to OUTPUT.csv and OUTPUT.json")
        ("threads,j", po::value(&request.threads)->default_value(request.threads),
         "threads of the validation (0: every CPU this process may run on)")
        ("pbo-backend", po::value(&request.pbo_backend)->default_value(request.pbo_backend)->value_name("auto|cpu|cuda"),
         "where the CSCV of a --pbo run and the SPA's bootstrap of a --spa run run: auto is a GPU of this machine "
         "when usable, else every core (the same numbers, bit for bit)")
        ("device", po::value(&gpu.device)->default_value(gpu.device),
         "GPU ordinal of the CSCV and the bootstrap (see btforge devices)");
    if (!parse_command_line(args,
                            "Usage: btforge merge SHARD... [-o OUTPUT]\n"
                            "Puts the shards of one `btforge sweep --shard i/N` run together and writes what one\n"
                            "process would have written (Note [Shards]).",
                            options, nullptr, &request.files)) {
        return kExitOk;
    }
    install_interrupt_handler();
    SweepHooks hooks;
    hooks.cancel = &interrupt_requested();
    hooks.progress_on_stderr = true;
    hooks.notice = [](const std::string& line) { std::cerr << "btforge merge: " << line << "\n"; };
    const std::unique_ptr<MergedSweep> merged = run_merge(request, hooks);
    return report_merged(*merged, request.output, "btforge merge");
}

}  // namespace btforge
