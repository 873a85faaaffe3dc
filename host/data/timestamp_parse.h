#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace btforge {

// Note [Timestamp forms]
// A market timestamp is either an integer count of epoch time units
// (optionally negative; Note [Epoch units]) or ISO-8601 in UTC:
//   YYYY-MM-DD
//   YYYY-MM-DD(T| )HH:MM[:SS[.f...]][Z|±HH:MM]
// A date alone is its midnight UTC; no suffix means UTC; an offset is
// subtracted to get UTC. Fractions may have up to 9 digits, but digits past
// the millisecond must be 0: silently truncating would merge distinct
// timestamps. Years are 0000..9999. Everything else is rejected rather than
// guessed (no locale, no TZ database, no 2-digit years), so one text has one
// meaning on every machine.

// Note [Epoch units]
// An integer timestamp counts seconds, milliseconds, microseconds or
// nanoseconds since 1970-01-01T00:00:00Z. It is converted to milliseconds
// exactly: a us or ns count that is not a whole number of milliseconds is
// refused, as sub-millisecond ISO fractions are (Note [Timestamp forms]),
// because rounding could merge two bars. Every timestamp, integer or ISO,
// must lie in years 0000..9999 (kMinTimestampMs..kMaxTimestampMs, the range
// format_timestamp_iso writes); that also keeps s -> ms clear of int64
// overflow.
//
// Unit detection (`--timestamp-unit auto`, the default): an integer is read
// in the unit that makes it a date in the plausible window
// [1971-01-01, 2100-01-01) (kPlausibleFromMs, kPlausibleUntilMs). The
// window's ends are 130x apart, less than the 1000x between units, so an
// integer is a plausible date in at most one unit: detection never has two
// candidates. A file is read in a detected unit only when every one of its
// integer timestamps is a plausible date in that same unit; otherwise (a
// value before 1971 or after 2099 in every unit, or units mixed) the loader
// refuses it and asks for `--timestamp-unit`. Since the unit is unique per
// value, the first integer of the file decides it and every later one must
// agree, which lets errors come out in line order. ISO timestamps have no
// unit and may sit in the same file. An explicit unit skips the window: only
// the 0000..9999 range applies.
enum class EpochUnit { Seconds, Milliseconds, Microseconds, Nanoseconds };

inline constexpr EpochUnit kEpochUnits[] = {EpochUnit::Seconds, EpochUnit::Milliseconds, EpochUnit::Microseconds,
                                            EpochUnit::Nanoseconds};

inline constexpr std::int64_t kMinTimestampMs = -62'167'219'200'000;  // 0000-01-01T00:00:00.000Z
inline constexpr std::int64_t kMaxTimestampMs = 253'402'300'799'999;  // 9999-12-31T23:59:59.999Z
inline constexpr std::int64_t kPlausibleFromMs = 31'536'000'000;      // 1971-01-01T00:00:00Z
inline constexpr std::int64_t kPlausibleUntilMs = 4'102'444'800'000;  // 2100-01-01T00:00:00Z, excluded
static_assert(kPlausibleUntilMs < 1000 * kPlausibleFromMs, "Note [Epoch units]: windows of two units must not overlap");

// "s", "ms", "us", "ns": the spellings of --timestamp-unit.
std::string_view epoch_unit_name(EpochUnit unit);
std::optional<EpochUnit> parse_epoch_unit(std::string_view name);

// "1971-01-01..2099-12-31", for messages.
std::string describe_plausible_window();

// The unit in which `value` is a date of the plausible window, if any (at
// most one: Note [Epoch units]).
std::optional<EpochUnit> plausible_epoch_unit(std::int64_t value);

enum class EpochConversion { Exact, SubMillisecond, OutOfRange };
struct EpochMs {
    EpochConversion result;
    std::int64_t ms;  // valid when result is Exact
};
// `value` units since the epoch in milliseconds, exactly, within
// kMinTimestampMs..kMaxTimestampMs (Note [Epoch units]).
EpochMs epoch_to_ms(std::int64_t value, EpochUnit unit);

bool timestamp_in_range(std::int64_t epoch_ms);

// A timestamp text as written: an ISO-8601 time (already in milliseconds)
// or an integer whose unit the caller decides.
struct TimestampText {
    std::int64_t value;
    bool is_integer;
};
// nullopt when `text` is not one of the forms of Note [Timestamp forms]. No
// surrounding whitespace allowed.
std::optional<TimestampText> parse_timestamp(std::string_view text);

// Milliseconds since 1970-01-01T00:00:00Z, reading an integer as epoch
// milliseconds; nullopt when `text` is not one of the forms of
// Note [Timestamp forms].
std::optional<std::int64_t> parse_timestamp_ms(std::string_view text);

// Days since 1970-01-01 of a proleptic Gregorian date (any year; no checks).
std::int64_t days_from_civil(std::int64_t year, unsigned month, unsigned day);

// `YYYY-MM-DDTHH:MM:SS.sssZ`, which parse_timestamp_ms reads back exactly.
// Throws std::out_of_range outside kMinTimestampMs..kMaxTimestampMs.
std::string format_timestamp_iso(std::int64_t epoch_ms);

}  // namespace btforge
