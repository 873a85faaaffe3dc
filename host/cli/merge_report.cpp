#include "host/cli/merge_report.h"

#include <iostream>

#include "host/app/run_header.h"
#include "host/cli/command_line.h"

namespace btforge {

int report_merged(const MergedSweep& merged, const std::string& output, const std::string& command) {
    if (merged.cancelled) {
        std::cerr << command << ": interrupted while computing the probability of backtest overfitting; no result "
                  << "file written\n";
        return kExitInterrupted;
    }
    // Where a merge's time goes (issue 30: the merge is rank 0's share of an
    // MPI run's time).
    std::cerr << command << ": " << merged.shards << (merged.shards == 1 ? " shard's" : " shards'")
              << " rows and period statistics merged in " << merged.merge_seconds << " s"
              << (merged.validation ? ", validated in " + std::to_string(merged.validation_seconds) + " s" : "")
              << "\n";
    const CheckedSweepRequest& request = merged.request;
    const StrategySpec& spec = merged.strategy.spec;
    const CombinationSpace& space = *merged.space;
    std::cout << format_ranked_table(spec, space, merged.top, *merged.outcomes, request.rank_order(),
                                     static_cast<std::size_t>(request.request.top_n));
    std::cout << "\n" << merged.summary.backend << ": " << merged.summary.combinations << " combinations, "
              << merged.summary.cells << " cells in " << merged.summary.seconds << " s of the shards' sweeps\n";
    if (merged.validation) {
        std::cout << format_validation(*merged.validation, spec, space, merged.spans, merged.bars_per_year);
    }
    std::cout << describe_result_files(output, request, merged.ranked.size());
    if (merged.summary.synthetic_market) std::cout << kSyntheticMarketNote << "\n";  // Note [Synthetic market said plainly]
    return kExitOk;
}

}  // namespace btforge
