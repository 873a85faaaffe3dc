// Fuzz target: the head of a sweep's result JSON, as `replay --from-results`
// reads it (host/report/results_head.h, Note [Reading a result JSON's
// head]). Any input may be refused with a JsonInputError or a
// std::runtime_error naming the file; anything else escaping, a crash, a
// leak or undefined behaviour is a bug.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "host/json/checked_json.h"
#include "host/report/results_head.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        (void)btforge::results_head_of_text(text, "fuzz.json");
    } catch (const btforge::JsonInputError&) {
    } catch (const std::runtime_error&) {
    }
    return 0;
}
