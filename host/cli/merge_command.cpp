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
    std::vector<std::string> files;
    po::options_description options("Merge");
    options.add_options()
        ("output,o", po::value(&output)->default_value(output), "results go to OUTPUT.csv and OUTPUT.json")
        ("threads,j", po::value(&threads)->default_value(threads), "threads of the validation (0: all)");
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
    install_interrupt_handler();
    std::vector<NamedShard> loaded;
    for (const std::string& file : files) loaded.push_back({file, read_shard_file(file)});
    const std::vector<NamedShard> shards = check_shards(std::move(loaded));
    const CheckedSweepRequest checked = request_of_shards(shards.front(), threads);
    std::vector<NamedFile> inputs;
    for (const std::string& file : files) inputs.push_back({"SHARD", file});
    OutputTransaction outputs = open_outputs(result_files(output, checked), inputs, &interrupt_requested());
    return merge_and_write(shards, checked, std::to_string(shards.size()) + " shards merged", outputs, output,
                           "btforge merge");
}

}  // namespace btforge
