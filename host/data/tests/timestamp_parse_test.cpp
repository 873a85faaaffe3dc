#include <doctest/doctest.h>

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
