// Note [Bytes of a file in a message]: what a message quotes of a file.
#include <doctest/doctest.h>

#include <string>

#include "host/io/printable_text.h"

using btforge::printable_text;

TEST_CASE("printable_text keeps text and escapes everything else") {
    struct Case {
        std::string in, out;
    };
    const Case cases[] = {
        {"timestamp,symbol", "timestamp,symbol"},
        {"time\x01\x02stamp", "time\\x01\\x02stamp"},       // control characters
        {"a\x1b[31mred", "a\\x1b[31mred"},                 // a terminal escape sequence
        {"del\x7f", "del\\x7f"},
        {"\xe5\xb8\x81\xe5\xae\x89", "\xe5\xb8\x81\xe5\xae\x89"},  // well-formed UTF-8 stays
        {"sym\xff", "sym\\xff"},                           // a byte that starts nothing
        {"\xc0\xaf", "\\xc0\\xaf"},                        // an overlong form
        {"\xed\xa0\x80", "\\xed\\xa0\\x80"},               // a surrogate
        {"\xe5\xb8", "\\xe5\\xb8"},                        // a character cut short
        {"\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"},      // above U+10FFFF
        {std::string("nul\0x", 5), "nul\\x00x"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.in);
        CHECK(printable_text(c.in) == c.out);
    }
    CHECK(printable_text(std::string(100, 'a'), 10) == std::string(10, 'a') + "...");
    CHECK(printable_text("abc", 3) == "abc");
}
