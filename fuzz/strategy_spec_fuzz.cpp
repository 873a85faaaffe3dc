// Fuzz target: a strategy spec (host/spec/strategy_spec.h) against the real
// indicator catalog. Any input may be refused with a SpecError; anything else
// escaping, a crash, a leak or undefined behaviour is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "host/engine/indicator_signatures.h"
#include "host/spec/spec_error.h"
#include "host/spec/strategy_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::vector<btforge::IndicatorSignature> catalog = btforge::indicator_signatures();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        (void)btforge::parse_strategy_spec(text, "fuzz.json", catalog);
    } catch (const btforge::SpecError&) {
    }
    return 0;
}
