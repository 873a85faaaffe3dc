#include <doctest/doctest.h>

#include <limits>
#include <optional>
#include <stdexcept>

#include "host/data/timestamp_parse.h"

using btforge::format_timestamp_iso;
using btforge::parse_timestamp_ms;

namespace {
constexpr std::int64_t k2024 = 1'704'067'200'000;  // 2024-01-01T00:00:00Z
}

TEST_CASE("epoch milliseconds") {
    CHECK(parse_timestamp_ms("0") == 0);
    CHECK(parse_timestamp_ms("1704067200000") == k2024);
    CHECK(parse_timestamp_ms("-1") == -1);
    CHECK_FALSE(parse_timestamp_ms("+1"));
    CHECK_FALSE(parse_timestamp_ms("1.5"));
    CHECK_FALSE(parse_timestamp_ms("1e3"));
    CHECK_FALSE(parse_timestamp_ms("99999999999999999999"));
    CHECK_FALSE(parse_timestamp_ms(""));
    CHECK_FALSE(parse_timestamp_ms(" 1"));
}

TEST_CASE("ISO-8601 dates and datetimes") {
    CHECK(parse_timestamp_ms("1970-01-01") == 0);
    CHECK(parse_timestamp_ms("2024-01-01") == k2024);
    CHECK(parse_timestamp_ms("2024-01-01T00:00") == k2024);
    CHECK(parse_timestamp_ms("2024-01-01 00:00:00") == k2024);
    CHECK(parse_timestamp_ms("2024-01-01T00:00:00Z") == k2024);
    CHECK(parse_timestamp_ms("2024-01-01t00:00:00z") == k2024);
    CHECK(parse_timestamp_ms("2024-01-01T01:02:03.004Z") == k2024 + 3'723'004);
    CHECK(parse_timestamp_ms("2024-01-01T01:02:03.4") == k2024 + 3'723'400);
    CHECK(parse_timestamp_ms("2024-01-01T01:02:03.400000") == k2024 + 3'723'400);
    CHECK(parse_timestamp_ms("2024-01-01T02:00+02:00") == k2024);
    CHECK(parse_timestamp_ms("2023-12-31T19:30:00-04:30") == k2024);
    CHECK(parse_timestamp_ms("2024-02-29") == k2024 + 59LL * 86'400'000);
    CHECK(parse_timestamp_ms("1969-12-31T23:59:59.999Z") == -1);
    CHECK(parse_timestamp_ms("2000-03-01") == 951'868'800'000);
}

TEST_CASE("malformed ISO-8601 is rejected, not guessed") {
    for (const char* bad : {"2023-02-29", "2024-13-01", "2024-00-10", "2024-01-32", "2024-1-01", "24-01-01",
                            "2024-01-01T24:00", "2024-01-01T00:60", "2024-01-01T00:00:60", "2024-01-01T00",
                            "2024-01-01T00:00:00.", "2024-01-01T00:00:00.0001", "2024-01-01T00:00:00.1234567890",
                            "2024-01-01T00:00Zjunk", "2024-01-01T00:00+0200", "2024-01-01T00:00+02",
                            "2024-01-01Z", "2024-01-01X00:00", "2024/01/01", "01/02/2024", "2024-01-01T00:00 ",
                            "yesterday"}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_timestamp_ms(bad));
    }
}

TEST_CASE("format_timestamp_iso is read back exactly") {
    CHECK(format_timestamp_iso(k2024) == "2024-01-01T00:00:00.000Z");
    CHECK(format_timestamp_iso(-1) == "1969-12-31T23:59:59.999Z");
    CHECK(format_timestamp_iso(951'868'800'123) == "2000-03-01T00:00:00.123Z");
    for (std::int64_t ms : {std::int64_t{0}, k2024 + 1, std::int64_t{-62'167'219'200'000},
                            std::int64_t{253'402'300'799'999}, std::int64_t{-86'400'001}, std::int64_t{1'709'164'800'000}}) {
        CAPTURE(ms);
        CHECK(parse_timestamp_ms(format_timestamp_iso(ms)) == ms);
    }
    CHECK_THROWS_AS(format_timestamp_iso(253'402'300'800'000), std::out_of_range);
}

TEST_CASE("epoch units: names, plausible windows and exact conversion") {
    using btforge::EpochConversion;
    using btforge::EpochUnit;
    for (const EpochUnit unit : btforge::kEpochUnits) {
        CHECK(btforge::parse_epoch_unit(btforge::epoch_unit_name(unit)) == unit);
    }
    CHECK_FALSE(btforge::parse_epoch_unit("auto"));
    CHECK_FALSE(btforge::parse_epoch_unit("MS"));
    CHECK(btforge::describe_plausible_window() == "1971-01-01..2099-12-31");

    const struct {
        std::int64_t value;
        std::optional<EpochUnit> unit;
    } plausible[] = {
        {0, std::nullopt},
        {31'535'999, std::nullopt},
        {31'536'000, EpochUnit::Seconds},
        {1'704'067'200, EpochUnit::Seconds},
        {4'102'444'799, EpochUnit::Seconds},
        {4'102'444'800, std::nullopt},
        {31'535'999'999, std::nullopt},
        {31'536'000'000, EpochUnit::Milliseconds},
        {k2024, EpochUnit::Milliseconds},
        {k2024 * 1000, EpochUnit::Microseconds},
        {k2024 * 1'000'000, EpochUnit::Nanoseconds},
        {4'102'444'799'999'999'999, EpochUnit::Nanoseconds},
        {std::numeric_limits<std::int64_t>::max(), std::nullopt},
        {-k2024, std::nullopt},
    };
    for (const auto& c : plausible) {
        CAPTURE(c.value);
        CHECK(btforge::plausible_epoch_unit(c.value) == c.unit);
    }

    const struct {
        std::int64_t value;
        EpochUnit unit;
        EpochConversion result;
        std::int64_t ms;
    } conversions[] = {
        {1'704'067'200, EpochUnit::Seconds, EpochConversion::Exact, k2024},
        {-1, EpochUnit::Seconds, EpochConversion::Exact, -1000},
        {253'402'300'799, EpochUnit::Seconds, EpochConversion::Exact, 253'402'300'799'000},
        {253'402'300'800, EpochUnit::Seconds, EpochConversion::OutOfRange, 0},
        {std::numeric_limits<std::int64_t>::max(), EpochUnit::Seconds, EpochConversion::OutOfRange, 0},
        {std::numeric_limits<std::int64_t>::min(), EpochUnit::Seconds, EpochConversion::OutOfRange, 0},
        {btforge::kMaxTimestampMs, EpochUnit::Milliseconds, EpochConversion::Exact, btforge::kMaxTimestampMs},
        {btforge::kMaxTimestampMs + 1, EpochUnit::Milliseconds, EpochConversion::OutOfRange, 0},
        {btforge::kMinTimestampMs - 1, EpochUnit::Milliseconds, EpochConversion::OutOfRange, 0},
        {k2024 * 1000, EpochUnit::Microseconds, EpochConversion::Exact, k2024},
        {k2024 * 1000 + 1, EpochUnit::Microseconds, EpochConversion::SubMillisecond, 0},
        {-1000, EpochUnit::Microseconds, EpochConversion::Exact, -1},
        {-999, EpochUnit::Microseconds, EpochConversion::SubMillisecond, 0},
        {k2024 * 1'000'000, EpochUnit::Nanoseconds, EpochConversion::Exact, k2024},
        {k2024 * 1'000'000 + 999'999, EpochUnit::Nanoseconds, EpochConversion::SubMillisecond, 0},
        {std::numeric_limits<std::int64_t>::max(), EpochUnit::Nanoseconds, EpochConversion::SubMillisecond, 0},
    };
    for (const auto& c : conversions) {
        CAPTURE(c.value);
        CAPTURE(btforge::epoch_unit_name(c.unit));
        const auto got = btforge::epoch_to_ms(c.value, c.unit);
        CHECK(got.result == c.result);
        if (c.result == EpochConversion::Exact) CHECK(got.ms == c.ms);
    }
}

TEST_CASE("parse_timestamp tells integers from ISO") {
    const auto integer = btforge::parse_timestamp("1704067200");
    REQUIRE(integer);
    CHECK(integer->is_integer);
    CHECK(integer->value == 1'704'067'200);
    const auto iso = btforge::parse_timestamp("2024-01-01");
    REQUIRE(iso);
    CHECK_FALSE(iso->is_integer);
    CHECK(iso->value == k2024);
    CHECK_FALSE(btforge::parse_timestamp("1.5"));
}
