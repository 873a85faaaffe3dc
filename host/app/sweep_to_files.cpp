#include "host/app/sweep_to_files.h"

#include <filesystem>
#include <vector>

#include "host/app/output_files.h"
#include "host/app/usage_error.h"
#include "host/report/shard_file.h"

namespace btforge {

std::unique_ptr<SweepRun> run_sweep_to_files(CheckedSweepRequest checked, const std::string& output,
                                             const SweepHooks& hooks) {
    if (output.empty() || output.back() == '/') {
        throw UsageError("--output '" + output + "': expected a file name without extension (results go to " +
                         "OUTPUT.csv and OUTPUT.json)");
    }
    const std::vector<NamedFile> files = checked.shard ? std::vector<NamedFile>{{"--output", output + ".shard"}}
                                                       : result_files(output, checked);
    OutputTransaction outputs = open_outputs(files, input_files(checked.request), hooks.cancel);
    checked.request.spool_directory = std::filesystem::absolute(output + ".csv").parent_path();
    std::unique_ptr<SweepRun> run = run_sweep(checked, hooks);
    if (run->cancelled) return run;
    if (checked.shard) {
        write_shard_file(outputs.stream(0), make_shard_file(*run, checked));
    } else {
        if (checked.request.intrabar_bounds) {  // the last of result_files
            run->summary.intrabar_bounds = order_bounds_json(run->order_bounds, files.back().path.filename().string());
        }
        write_result_files(outputs, run->summary, run->strategy.spec, *run->space, run->ranked(), *run->outcomes,
                           run->validation,
                           run->spans, run->bars_per_year);
        if (checked.request.intrabar_bounds) {  // the last of result_files
            write_order_bounds_csv(outputs.stream(files.size() - 1), run->strategy.spec, *run->space,
                                   run->order_bounds);
        }
    }
    outputs.commit();
    return run;
}

}  // namespace btforge
