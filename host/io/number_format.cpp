#include "host/io/number_format.h"

#include <charconv>
#include <cmath>

namespace btforge {

// std::to_chars without a precision writes the fewest significant digits that
// read back as the same double, in fixed notation unless scientific is
// shorter: 20 stays "20" where "%.1g" would give "2e+01". It also ignores the
// C locale, so a process that called setlocale() still writes "0.5".
std::string format_double(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

std::string format_significant(double value, int digits) {
    if (!std::isfinite(value)) return format_double(value);
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, digits);
    return std::string(buffer, result.ptr);
}

}  // namespace btforge
