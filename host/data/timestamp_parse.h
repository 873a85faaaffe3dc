#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace btforge {

// Note [Timestamp forms]
// A market timestamp is either integer epoch milliseconds (optionally
// negative) or ISO-8601 in UTC:
//   YYYY-MM-DD
//   YYYY-MM-DD(T| )HH:MM[:SS[.f...]][Z|±HH:MM]
// A date alone is its midnight UTC; no suffix means UTC; an offset is
// subtracted to get UTC. Fractions may have up to 9 digits, but digits past
// the millisecond must be 0: silently truncating would merge distinct
// timestamps. Years are 0000..9999. Everything else is rejected rather than
// guessed (no locale, no TZ database, no 2-digit years), so one text has one
// meaning on every machine.

// Milliseconds since 1970-01-01T00:00:00Z, or nullopt when `text` is not one
// of the forms of Note [Timestamp forms]. No surrounding whitespace allowed.
std::optional<std::int64_t> parse_timestamp_ms(std::string_view text);

// Days since 1970-01-01 of a proleptic Gregorian date (any year; no checks).
std::int64_t days_from_civil(std::int64_t year, unsigned month, unsigned day);

// `YYYY-MM-DDTHH:MM:SS.sssZ`, which parse_timestamp_ms reads back exactly.
// Throws std::out_of_range outside years 0000..9999.
std::string format_timestamp_iso(std::int64_t epoch_ms);

}  // namespace btforge
