#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "host/spec/indicator_signature.h"
#include "host/spec/strategy_spec.h"

namespace btforge::gen {

// One strategy (Note [Strategy discovery]) to generate a sweep kernel and a
// binding for.
struct StrategyTarget {
    StrategySpec spec;           // parsed and validated like the engines do
    std::string spec_file;       // relative to the root, spec/NAME.json
    std::string header;          // relative to the root, reference/strategies/NAME/NAME_strategy.h
    std::string entry;           // qualified kernel function, e.g. "btforge::run_default_strategy"
    // Read off the entry's parameter types once the reference is parsed
    // (resolve_strategy_structs): qualified, e.g. "btforge::DefaultParams".
    std::string params_struct;   // one field per spec parameter, in spec order
    std::string series_struct;   // one pointer per spec indicator id, in spec order
};

// One per-symbol indicator of the catalog (host/indicators) and the
// reference function the GPU runs for it. Its kind is its position in
// GeneratorConfig::indicators, the number host code puts in a job.
struct IndicatorTarget {
    IndicatorSignature signature;  // name, params, outputs, inputs
    std::string function;          // qualified, e.g. "btforge::ema_compute"
};

struct CudaTarget {
    std::vector<std::string> architectures;  // cubins, e.g. "sm_90"
    std::string ptx;                         // PTX for later chips, e.g. "compute_90"
    int max_threads_per_block = 128;         // __launch_bounds__
    int min_blocks_per_multiprocessor = 1;
};

// One compilation of the device code for markets of up to max_symbols
// symbols (Note [Kernel variants] in reference/market/symbol_capacity.h).
// The first variant's kernels keep the plain names (btforge_<s>_sweep); the
// others' carry "_<name>" (btforge_<s>_sweep_wide).
struct KernelVariant {
    std::string name;  // an identifier, e.g. "wide"
    int max_symbols = 0;
    std::string suffix;  // "" for the first, "_<name>" for the others
    // Note [Spills: errors for the shipped kernels only]: whether a spill of
    // this variant's kernels fails a strict build (cmake/BtforgeGenerated.cmake
    // reads the key; kept here so that the generator validates it).
    bool spills_checked = false;
};

// spec/generator.json "symbol_capacity": the reference's constant and the
// variants, from the smallest capacity to the reference's own.
struct SymbolCapacity {
    std::string constant;  // qualified, e.g. "btforge::kMaxSymbols"
    std::vector<KernelVariant> variants;
};

// spec/generator.json "strategy_entry": the parameters every strategy's
// entry takes, in order, as the templates call it (Note [The strategy
// contract]). `type` is the canonical spelling ("double *"), or "series" /
// "params" for the strategy's own structs, checked against its spec.
struct EntryParameter {
    std::string name;
    std::string type;
};

// The generator spec (spec/generator.json): what to read, what to emit.
struct GeneratorConfig {
    std::string origin;
    std::vector<std::string> reference_headers;  // entry headers, relative to the root (strategies' included)
    std::vector<std::string> layout_structs;     // qualified structs shared by host and device
    std::vector<StrategyTarget> strategies;
    std::vector<EntryParameter> strategy_entry;  // empty: only the series and params positions are checked
    std::vector<IndicatorTarget> indicators;  // catalog order, per-symbol indicators only; empty: none generated
    CudaTarget cuda;
    SymbolCapacity symbol_capacity;
};

// The most parameters and outputs any GPU indicator has: the sizes of the
// fixed arrays of an indicator job (templates/btforge_layout.h).
std::size_t max_indicator_args(const GeneratorConfig& config);
std::size_t max_indicator_outputs(const GeneratorConfig& config);

// Throws SpecError naming the JSON path on any problem.
GeneratorConfig load_generator_config(const std::filesystem::path& root, const std::string& relative_path);

}  // namespace btforge::gen
