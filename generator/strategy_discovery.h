#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace btforge::gen {

// Note [Strategy discovery]
// A strategy NAME is a folder and a spec, nothing else:
//   reference/strategies/NAME/NAME_strategy.h  the kernel: BT_KERNEL
//       btforge::run_NAME_strategy(const MarketView&, const <Series>&,
//       const <Params>&, const AccountConfig&, Metrics&, FillLog*, double*);
//       the Params and Series structs are read off its parameter types;
//   spec/NAME.json                             "strategy": "NAME";
//   spec/grids/NAME_quickstart.json            its quickstart grid;
//   spec/grids/NAME_bench_large.json           its speed guard workload (about
//       2^20 combinations; Note [Speed guard] in scripts/speed-guard);
//   reference/strategies/NAME/tests/*_test.cpp its scenario tests.
// The strategy specs are the files spec/*.json with a top-level "strategy"
// key. Everything else follows from them: btforge-gen renders the sweep
// kernel, the host binding and the catalog (generated/), the build embeds the
// spec and the grids, builds the kernel and the scenario tests and registers
// the CI checks per strategy. The rule is written twice, once per language
// that needs it before the other can run: here for btforge-gen and in
// cmake/BtforgeStrategies.cmake for the configure step (which runs before
// btforge-gen is built); parity-tests/strategy_discovery checks that both
// find the same strategies.
struct DiscoveredStrategy {
    std::string name;         // the spec's "strategy"
    std::string spec_file;    // relative to the root, "spec/NAME.json"
    std::string header;       // "reference/strategies/NAME/NAME_strategy.h"
    std::string entry;        // "btforge::run_NAME_strategy"
    std::string spec_text;    // the spec as read here, so that it is read once
};

// Every strategy of the tree under `root`, sorted by name. Throws
// std::runtime_error listing every problem found (one per line, each naming
// its file): a strategy spec not named spec/<strategy>.json, a name that is
// not an identifier, a missing kernel header, quickstart grid or large
// workload grid, a folder of reference/strategies/ without a spec.
// `reference_namespace` qualifies the entries ("btforge"; spec/generator.json
// "namespace" names another for a test fixture).
std::vector<DiscoveredStrategy> discover_strategies(const std::filesystem::path& root,
                                                    const std::string& reference_namespace = "btforge");

}  // namespace btforge::gen
