#include "host/app/window_choice.h"

#include <optional>

#include "host/app/usage_error.h"
#include "host/data/timestamp_parse.h"

namespace btforge {

namespace {

std::optional<std::int64_t> parse_bound(const std::string& option, const std::string& text) {
    if (text.empty()) return std::nullopt;
    const std::optional<TimestampText> parsed = parse_timestamp(text);
    if (!parsed) {
        throw UsageError(option + " '" + text + "': expected an ISO-8601 UTC time (2024-01-31, 2024-01-31T08:00, "
                         "2024-01-31T08:00:00+02:00) or an integer epoch time");
    }
    if (!parsed->is_integer) return parsed->value;
    const std::optional<EpochUnit> unit = plausible_epoch_unit(parsed->value);
    if (!unit) {
        throw UsageError(option + " '" + text + "': an integer is read as epoch seconds, milliseconds, microseconds or "
                         "nanoseconds, whichever makes it a date in " + describe_plausible_window() +
                         "; this one is in none (write the time in ISO-8601)");
    }
    const EpochMs ms = epoch_to_ms(parsed->value, *unit);
    if (ms.result != EpochConversion::Exact) {
        throw UsageError(option + " '" + text + "': not a whole number of milliseconds");
    }
    return ms.ms;
}

}  // namespace

MarketWindow choose_window(const Market& market, const WindowChoice& c) {
    const std::optional<std::int64_t> from = parse_bound("--from", c.from);
    const std::optional<std::int64_t> to = parse_bound("--to", c.to);
    if (from && to && *from >= *to) {
        throw UsageError("--from " + c.from + " is not before --to " + c.to + " (the window is [from, to))");
    }
    return select_window(market, from, to);
}

std::string window_arguments(const WindowChoice& c) {
    std::string out;
    if (!c.from.empty()) out += " --from " + c.from;
    if (!c.to.empty()) out += " --to " + c.to;
    return out;
}

}  // namespace btforge
