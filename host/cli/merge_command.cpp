#include <iostream>

#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/interrupt.h"
#include "host/cli/shard_merge.h"

namespace btforge {

namespace po = boost::program_options;

int run_merge_command(const std::vector<std::string>& args) {
    std::string output = "btforge-sweep";
    int threads = 0;
    std::string pbo_backend = "auto";
    BackendChoice gpu;  // Note [CSCV of a merge]: --device only
    std::vector<std::string> files;
    po::options_description options("Merge");
    options.add_options()
        ("output,o", po::value(&output)->default_value(output), "results go to OUTPUT.csv and OUTPUT.json")
        ("threads,j", po::value(&threads)->default_value(threads),
         "threads of the validation (0: every CPU this process may run on)")
        ("pbo-backend", po::value(&pbo_backend)->default_value(pbo_backend)->value_name("auto|cpu|cuda"),
         "where the CSCV of a --pbo run runs: auto is a GPU of this machine when usable, else every core (the same "
         "numbers, bit for bit)")
        ("device", po::value(&gpu.device)->default_value(gpu.device), "GPU ordinal of the CSCV (see btforge devices)");
    if (!parse_command_line(args,
                            "Usage: btforge merge SHARD... [-o OUTPUT]\n"
                            "Puts the shards of one `btforge sweep --shard i/N` run together and writes what one\n"
                            "process would have written (Note [Shards]).",
                            options, nullptr, &files)) {
        return kExitOk;
    }
    if (files.empty()) throw po::error("give the shard files (OUTPUT.shard of each btforge sweep --shard i/N)");
    if (output.empty() || output.back() == '/') {
        throw po::error("--output '" + output + "': expected a file name without extension");
    }
    check_pbo_backend_name(pbo_backend);
    install_interrupt_handler();
    std::vector<NamedShard> loaded;
    for (const std::string& file : files) loaded.push_back({file, read_shard_file(file)});
    std::vector<NamedShard> shards = check_shards(std::move(loaded));
    const CheckedSweepRequest checked = request_of_shards(shards.front(), threads);
    OverfittingBackend cscv;
    if (checked.request.pbo) {
        cscv = resolve_overfitting_backend(pbo_backend, gpu);
        if (!cscv.fallback.empty()) {
            std::cerr << "btforge merge: no usable GPU for the CSCV (" << cscv.fallback << "); it runs on "
                      << thread_count_text(checked.request.threads) << "\n";
        }
    }
    std::vector<NamedFile> inputs;
    for (const std::string& file : files) inputs.push_back({"SHARD", file});
    OutputTransaction outputs = open_outputs(result_files(output, checked), inputs, &interrupt_requested());
    const std::string what = std::to_string(shards.size()) + " shards merged";
    return merge_and_write(std::move(shards), checked, cscv, what, outputs, output, "btforge merge");
}

}  // namespace btforge
