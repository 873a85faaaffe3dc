// Fuzz target: a grid (host/spec/grid.h) against each strategy spec embedded
// in the binary, so the seeds are the real grid files. Any input may be
// refused with a SpecError; anything else escaping, a crash, a leak or
// undefined behaviour is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "host/engine/indicator_signatures.h"
#include "host/spec/grid.h"
#include "host/spec/spec_error.h"
#include "host/spec/strategy_spec.h"
#include "spec/embedded_specs.h"

namespace {

std::vector<btforge::StrategySpec> embedded_specs() {
    const std::vector<btforge::IndicatorSignature> catalog = btforge::indicator_signatures();
    std::vector<btforge::StrategySpec> specs;
    for (const char* file : {"default.json", "sma_cross.json"})
        specs.push_back(btforge::parse_strategy_spec(*btforge::embedded_spec_file(file), file, catalog));
    return specs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::vector<btforge::StrategySpec> specs = embedded_specs();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const btforge::StrategySpec& spec : specs) {
        try {
            (void)btforge::parse_grid(text, "fuzz.json", spec);
        } catch (const btforge::SpecError&) {
        }
    }
    return 0;
}
