#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "host/data/csv_rows.h"
#include "host/data/timestamp_parse.h"

namespace btforge {

// The meaning of CSV fields (Note [CSV rows] cuts them): header lookup,
// numbers and timestamps, each error a DataError at the field's line and
// column with the rules the market loader has always used, so every CSV
// format btforge reads reports the same way.

// One row as read, for locating errors: column = field index + 1.
struct CsvRow {
    const std::string& file;
    std::span<const CsvField> fields;
    std::size_t line;  // where the row starts
    [[noreturn]] void fail(std::size_t field_index, const std::string& rule, const std::string& message) const;
};

std::string_view csv_trim(std::string_view s);  // surrounding spaces and tabs
std::string csv_lowercase(std::string_view s);
std::string in_quotes(std::string_view s);      // "text", cut at 40 characters
std::string shortest_text(double value);        // the shortest text that reads back as `value`
std::string describe_ms(std::int64_t ms);       // ISO-8601, or "N ms" outside years 0000..9999

inline constexpr std::size_t kCsvAbsent = static_cast<std::size_t>(-1);

struct CsvColumn {
    std::string_view name;  // lower case
    bool required = true;
};

// The field index of each column of `columns` in the header row `header`
// (names compared case-insensitively, surrounding spaces ignored, other
// columns ignored); kCsvAbsent for an optional column that is missing.
// DataError duplicate-column at a column's second field, missing-column
// naming the header's fields after "the first line must be a header naming
// <expected>".
std::vector<std::size_t> map_csv_header(const CsvRow& header, std::span<const CsvColumn> columns,
                                        const std::string& expected);

// The number in field `index` called `name` in messages: DataError
// not-a-number when it is empty, not a number, out of the range of a
// double or not finite. A leading '+' is accepted.
double csv_number(const CsvRow& row, std::size_t index, std::string_view name);

// Note [Epoch units] for one file: the unit given, or detected from the
// first integer timestamp and then required of every other.
class EpochUnitDetector {
public:
    EpochUnitDetector(std::optional<EpochUnit> given, std::string advice) : given_(given), advice_(std::move(advice)) {}
    // Milliseconds of the timestamp in field `index`: DataError bad-timestamp,
    // ambiguous-timestamp-unit, sub-millisecond-timestamp,
    // timestamp-out-of-range.
    std::int64_t timestamp_ms(const CsvRow& row, std::size_t index);
    // The unit integer timestamps were read in; nullopt when none was seen.
    std::optional<EpochUnit> unit() const;
    bool detected() const { return !given_.has_value(); }

private:
    EpochUnit integer_unit(const CsvRow& row, std::size_t index, std::int64_t value);
    std::optional<EpochUnit> given_;
    std::string advice_;
    bool saw_integer_ = false;
    std::optional<EpochUnit> detected_;
    std::int64_t first_integer_ = 0;
    std::size_t first_integer_line_ = 0;
    std::int64_t min_integer_ = 0;
    std::int64_t max_integer_ = 0;
};

}  // namespace btforge
