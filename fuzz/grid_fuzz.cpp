// Fuzz target: a grid (host/spec/grid.h) against each strategy spec embedded
// in the binary, so the seeds are the real grid files. Any input may be
// refused with a SpecError; anything else escaping, a crash, a leak or
// undefined behaviour is a bug. A grid that parses makes its combination
// space, whose first and last ordinals must map to ids and back (Note [Run
// order of a conditional grid]).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/engine/indicator_signatures.h"
#include "host/spec/combination_space.h"
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
            const btforge::Grid grid = btforge::parse_grid(text, "fuzz.json", spec);
            const btforge::CombinationSpace space(spec, grid);
            for (std::uint64_t ordinal : {std::uint64_t{0}, space.count() / 2, space.count() - 1}) {
                const std::uint64_t id = space.combination_id(ordinal);
                const std::optional<std::uint64_t> back = space.ordinal_of(id);
                if (!back || *back != ordinal) std::abort();  // combination_id and ordinal_of disagree
            }
        } catch (const btforge::SpecError&) {
        }
    }
    return 0;
}
