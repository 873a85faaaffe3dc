// Fuzz target: an instruments file (host/data/instruments.h). Any input may
// be refused with a DataError; anything else escaping, a crash, a leak or
// undefined behaviour is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "host/data/data_error.h"
#include "host/data/instruments.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        (void)btforge::parse_instruments(text, "fuzz.json");
    } catch (const btforge::DataError&) {
    }
    return 0;
}
