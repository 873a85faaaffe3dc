#pragma once

#include <string>

namespace btforge {

// The shortest text (at most 17 significant digits, "%.17g" with the
// superfluous digits trimmed) that reads back as the same double: 0.1 prints
// as "0.1", not "0.10000000000000001", 2.0 as "2" and 20 as "20". Reports,
// replay commands and error messages all print numbers this way, so a value
// copied from any of them selects exactly the same combination.
std::string format_double(double value);

// `value` rounded to `digits` significant digits, for people to read (tables,
// headers): 0.0215443, 1e+06, 20; "nan", "inf", "-inf" as format_double.
std::string format_significant(double value, int digits = 6);

}  // namespace btforge
