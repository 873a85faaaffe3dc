#include "host/data/timestamp_parse.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace btforge {

namespace {

constexpr std::int64_t kMsPerDay = 86'400'000;

// Counts of a unit per second, in the order of EpochUnit.
constexpr std::int64_t per_second(EpochUnit unit) {
    switch (unit) {
        case EpochUnit::Seconds: return 1;
        case EpochUnit::Milliseconds: return 1'000;
        case EpochUnit::Microseconds: return 1'000'000;
        case EpochUnit::Nanoseconds: return 1'000'000'000;
    }
    return 1;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads exactly `n` digits at `pos`, advancing it.
bool read_digits(std::string_view s, std::size_t& pos, std::size_t n, int& value) {
    if (pos + n > s.size()) return false;
    int v = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const char c = s[pos + i];
        if (!is_digit(c)) return false;
        v = v * 10 + (c - '0');
    }
    value = v;
    pos += n;
    return true;
}

bool expect(std::string_view s, std::size_t& pos, char c) {
    if (pos < s.size() && s[pos] == c) {
        ++pos;
        return true;
    }
    return false;
}

bool is_leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int days_in_month(int year, int month) {
    static constexpr std::array<int, 12> kDays{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && is_leap(year) ? 29 : kDays[static_cast<std::size_t>(month - 1)];
}

std::optional<std::int64_t> parse_epoch_integer(std::string_view s) {
    std::int64_t value = 0;
    const char* first = s.data();
    const char* last = s.data() + s.size();
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr != last) return std::nullopt;
    return value;
}

std::optional<std::int64_t> parse_iso(std::string_view s) {
    std::size_t pos = 0;
    int year = 0, month = 0, day = 0;
    if (!read_digits(s, pos, 4, year) || !expect(s, pos, '-') || !read_digits(s, pos, 2, month) ||
        !expect(s, pos, '-') || !read_digits(s, pos, 2, day)) {
        return std::nullopt;
    }
    if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month)) return std::nullopt;
    std::int64_t ms = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * kMsPerDay;
    if (pos == s.size()) return ms;

    const char sep = s[pos++];
    if (sep != 'T' && sep != 't' && sep != ' ') return std::nullopt;
    int hour = 0, minute = 0, second = 0;
    if (!read_digits(s, pos, 2, hour) || !expect(s, pos, ':') || !read_digits(s, pos, 2, minute)) return std::nullopt;
    if (hour > 23 || minute > 59) return std::nullopt;
    if (expect(s, pos, ':')) {
        if (!read_digits(s, pos, 2, second) || second > 59) return std::nullopt;
        if (expect(s, pos, '.')) {
            int millis = 0;
            std::size_t digits = 0;
            while (pos < s.size() && is_digit(s[pos])) {
                const int d = s[pos] - '0';
                if (digits < 3) {
                    millis = millis * 10 + d;
                } else if (d != 0) {
                    return std::nullopt;  // sub-millisecond precision: see Note [Timestamp forms]
                }
                ++digits;
                ++pos;
            }
            if (digits == 0 || digits > 9) return std::nullopt;
            for (std::size_t i = digits; i < 3; ++i) millis *= 10;
            ms += millis;
        }
    }
    ms += (static_cast<std::int64_t>(hour) * 3600 + minute * 60 + second) * 1000;
    if (pos == s.size()) return ms;

    const char zone = s[pos++];
    if (zone == 'Z' || zone == 'z') return pos == s.size() ? std::optional<std::int64_t>(ms) : std::nullopt;
    if (zone != '+' && zone != '-') return std::nullopt;
    int off_hour = 0, off_minute = 0;
    if (!read_digits(s, pos, 2, off_hour) || !expect(s, pos, ':') || !read_digits(s, pos, 2, off_minute) ||
        pos != s.size() || off_hour > 23 || off_minute > 59) {
        return std::nullopt;
    }
    const std::int64_t offset_ms = (static_cast<std::int64_t>(off_hour) * 60 + off_minute) * 60'000;
    // Local time = UTC + offset, so UTC = local - offset.
    return zone == '+' ? ms - offset_ms : ms + offset_ms;
}

}  // namespace

// Howard Hinnant's days_from_civil: exact integer arithmetic over 400-year eras.
std::int64_t days_from_civil(std::int64_t year, unsigned month, unsigned day) {
    year -= month <= 2 ? 1 : 0;
    const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
    const auto yoe = static_cast<unsigned>(year - era * 400);                     // [0, 399]
    const unsigned doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;  // [0, 365]
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;                  // [0, 146096]
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::string_view epoch_unit_name(EpochUnit unit) {
    switch (unit) {
        case EpochUnit::Seconds: return "s";
        case EpochUnit::Milliseconds: return "ms";
        case EpochUnit::Microseconds: return "us";
        case EpochUnit::Nanoseconds: return "ns";
    }
    return "?";
}

std::optional<EpochUnit> parse_epoch_unit(std::string_view name) {
    for (const EpochUnit unit : kEpochUnits) {
        if (name == epoch_unit_name(unit)) return unit;
    }
    return std::nullopt;
}

std::string describe_plausible_window() {
    return format_timestamp_iso(kPlausibleFromMs).substr(0, 10) + ".." +
           format_timestamp_iso(kPlausibleUntilMs - 1).substr(0, 10);
}

std::optional<EpochUnit> plausible_epoch_unit(std::int64_t value) {
    for (const EpochUnit unit : kEpochUnits) {
        // The window's ends are whole seconds, so these products are exact;
        // the largest, 2100 in ns, is 4.1e18 < 2^63.
        const std::int64_t from = kPlausibleFromMs / 1000 * per_second(unit);
        const std::int64_t until = kPlausibleUntilMs / 1000 * per_second(unit);
        if (value >= from && value < until) return unit;
    }
    return std::nullopt;
}

bool timestamp_in_range(std::int64_t epoch_ms) { return epoch_ms >= kMinTimestampMs && epoch_ms <= kMaxTimestampMs; }

EpochMs epoch_to_ms(std::int64_t value, EpochUnit unit) {
    std::int64_t ms = value;
    if (unit == EpochUnit::Seconds) {
        // Checked before multiplying: value * 1000 may not fit an int64.
        if (value < kMinTimestampMs / 1000 || value > kMaxTimestampMs / 1000) {
            return {EpochConversion::OutOfRange, 0};
        }
        ms = value * 1000;
    } else if (unit != EpochUnit::Milliseconds) {
        const std::int64_t per_ms = per_second(unit) / 1000;
        if (value % per_ms != 0) return {EpochConversion::SubMillisecond, 0};
        ms = value / per_ms;
    }
    if (!timestamp_in_range(ms)) return {EpochConversion::OutOfRange, 0};
    return {EpochConversion::Exact, ms};
}

std::optional<TimestampText> parse_timestamp(std::string_view text) {
    if (text.empty()) return std::nullopt;
    // `YYYY-` can never start an integer, so the fifth character decides.
    if (text.size() >= 5 && text[4] == '-') {
        const auto ms = parse_iso(text);
        if (!ms) return std::nullopt;
        return TimestampText{*ms, false};
    }
    const auto value = parse_epoch_integer(text);
    if (!value) return std::nullopt;
    return TimestampText{*value, true};
}

std::optional<std::int64_t> parse_timestamp_ms(std::string_view text) {
    const auto parsed = parse_timestamp(text);
    if (!parsed) return std::nullopt;
    return parsed->value;
}

std::string format_timestamp_iso(std::int64_t epoch_ms) {
    if (!timestamp_in_range(epoch_ms)) {
        throw std::out_of_range("timestamp " + std::to_string(epoch_ms) + " ms is outside years 0000..9999");
    }
    std::int64_t days = epoch_ms / kMsPerDay;
    std::int64_t ms_of_day = epoch_ms % kMsPerDay;
    if (ms_of_day < 0) {
        ms_of_day += kMsPerDay;
        --days;
    }
    // Inverse of days_from_civil (civil_from_days).
    const std::int64_t z = days + 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned day = doy - (153 * mp + 2) / 5 + 1;
    const unsigned month = mp < 10 ? mp + 3 : mp - 9;
    const std::int64_t year = static_cast<std::int64_t>(yoe) + era * 400 + (month <= 2 ? 1 : 0);

    const auto hour = static_cast<int>(ms_of_day / 3'600'000);
    const auto minute = static_cast<int>(ms_of_day / 60'000 % 60);
    const auto second = static_cast<int>(ms_of_day / 1000 % 60);
    const auto millis = static_cast<int>(ms_of_day % 1000);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", static_cast<int>(year), month, day, hour,
                  minute, second, millis);
    return buf;
}

}  // namespace btforge
