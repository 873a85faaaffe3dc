#include "host/data/csv_fields.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "host/data/data_error.h"
#include "host/io/printable_text.h"

namespace btforge {

void CsvRow::fail(std::size_t field_index, const std::string& rule, const std::string& message) const {
    const std::size_t at = field_index < fields.size() ? fields[field_index].line : line;
    throw DataError(file, at, field_index + 1, rule, message);
}

std::string_view csv_trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::string csv_lowercase(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

std::string in_quotes(std::string_view s) {
    // Note [Bytes of a file in a message]: a binary file's header is not echoed raw.
    return "\"" + printable_text(s, 40) + "\"";
}

std::string shortest_text(double value) {
    char buf[32];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, value);
    return ec == std::errc() ? std::string(buf, ptr) : std::string("?");
}

std::string describe_ms(std::int64_t ms) {
    try {
        return format_timestamp_iso(ms);
    } catch (const std::out_of_range&) {
        return std::to_string(ms) + " ms";
    }
}

std::vector<std::size_t> map_csv_header(const CsvRow& header, std::span<const CsvColumn> columns,
                                        const std::string& expected) {
    std::vector<std::size_t> column_of(columns.size(), kCsvAbsent);
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
        const std::string name = csv_lowercase(csv_trim(header.fields[i].text));
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (name != columns[c].name) continue;
            if (column_of[c] != kCsvAbsent) {
                header.fail(i, "duplicate-column",
                            "column \"" + name + "\" appears twice (fields " + std::to_string(column_of[c] + 1) +
                                " and " + std::to_string(i + 1) + ")");
            }
            column_of[c] = i;
        }
    }
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (!columns[c].required || column_of[c] != kCsvAbsent) continue;
        std::string have;
        for (std::size_t i = 0; i < header.fields.size(); ++i) {
            have += (i ? ", " : "") + in_quotes(csv_trim(header.fields[i].text));
        }
        throw DataError(header.file, header.line, 0, "missing-column",
                        "no \"" + std::string(columns[c].name) + "\" column; the first line must be a header naming " +
                            expected + "; it has: " + have);
    }
    return column_of;
}

double csv_number(const CsvRow& row, std::size_t index, std::string_view name_view) {
    const CsvField& f = row.fields[index];
    std::string_view text = csv_trim(f.text);
    const std::string name(name_view);
    if (text.empty()) row.fail(index, "not-a-number", name + " is empty");
    if (text.front() == '+') text.remove_prefix(1);
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range) {
        row.fail(index, "not-a-number", name + " " + in_quotes(f.text) + " is out of the range of a double");
    }
    if (ec != std::errc() || ptr != text.data() + text.size()) {
        row.fail(index, "not-a-number", name + " " + in_quotes(f.text) + " is not a number");
    }
    if (!std::isfinite(value)) row.fail(index, "not-a-number", name + " " + in_quotes(f.text) + " is not finite");
    return value;
}

std::optional<EpochUnit> EpochUnitDetector::unit() const {
    if (!saw_integer_) return std::nullopt;
    return given_ ? given_ : detected_;
}

EpochUnit EpochUnitDetector::integer_unit(const CsvRow& row, std::size_t index, std::int64_t value) {
    if (!saw_integer_) {
        saw_integer_ = true;
        min_integer_ = max_integer_ = value;
    }
    min_integer_ = std::min(min_integer_, value);
    max_integer_ = std::max(max_integer_, value);
    if (given_) return *given_;

    const std::optional<EpochUnit> unit = plausible_epoch_unit(value);
    if (unit && unit == detected_) return *unit;
    const std::string window = describe_plausible_window();  // only for the messages
    if (!detected_) {
        if (!unit) {
            row.fail(index, "ambiguous-timestamp-unit",
                     "cannot tell the unit of epoch timestamp " + std::to_string(value) + ": it is a date in " +
                         window + " in none of s, ms, us, ns; " + advice_);
        }
        detected_ = unit;
        first_integer_ = value;
        first_integer_line_ = row.fields[index].line;
        return *unit;
    }
    row.fail(index, "ambiguous-timestamp-unit",
             "cannot tell the unit of the epoch timestamps: " + std::to_string(value) + " is a date in " + window +
                 (unit ? " only in " + std::string(epoch_unit_name(*unit)) : std::string(" in no unit")) +
                 ", but the first one, " + std::to_string(first_integer_) + " on line " +
                 std::to_string(first_integer_line_) + ", only in " + std::string(epoch_unit_name(*detected_)) +
                 "; the integer timestamps so far range from " + std::to_string(min_integer_) + " to " +
                 std::to_string(max_integer_) + "; " + advice_);
}

std::int64_t EpochUnitDetector::timestamp_ms(const CsvRow& row, std::size_t index) {
    const std::string& text = row.fields[index].text;
    const auto parsed = parse_timestamp(csv_trim(text));
    if (!parsed) {
        row.fail(index, "bad-timestamp",
                 in_quotes(text) +
                     " is neither an integer epoch time (s, ms, us or ns) nor ISO-8601 UTC "
                     "(YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|+HH:MM])");
    }
    if (!parsed->is_integer) {
        if (!timestamp_in_range(parsed->value)) {
            row.fail(index, "timestamp-out-of-range", in_quotes(text) + " is outside years 0000..9999 in UTC");
        }
        return parsed->value;
    }
    const EpochUnit unit = integer_unit(row, index, parsed->value);
    const EpochMs converted = epoch_to_ms(parsed->value, unit);
    if (converted.result == EpochConversion::Exact) return converted.ms;
    const std::string what = "epoch timestamp " + in_quotes(text) + " in " + std::string(epoch_unit_name(unit)) +
                             (given_ ? "" : " (detected)");
    if (converted.result == EpochConversion::SubMillisecond) {
        row.fail(index, "sub-millisecond-timestamp",
                 what + " is not a whole number of milliseconds; bars are timed to the millisecond and rounding "
                        "could merge two of them");
    }
    row.fail(index, "timestamp-out-of-range", what + " is outside years 0000..9999");
}

}  // namespace btforge
