// Note [Cooldown], one table.
#include <doctest/doctest.h>

#include "reference/exits/cooldown.h"

using namespace btforge;

TEST_CASE("Note [Cooldown]: the bars after an exit that take no entry") {
    struct Case {
        const char* what;
        int bar, last_exit, cooldown, expected;
    } const cases[] = {
        {"cooldown 0: not on the exit's own bar", 10, 10, 0, 1},
        {"cooldown 0: the next bar may enter", 11, 10, 0, 0},
        {"cooldown 5: five bars after the exit still waits", 15, 10, 5, 1},
        {"cooldown 5: the sixth bar may enter", 16, 10, 5, 0},
        {"never exited: any cooldown has passed", 0, kNoExitYet, 1000000, 0},
        {"never exited, at bar 10^9: t - kNoExitYet still fits an int", 1000000000, kNoExitYet, 999999999, 0},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        CHECK(in_cooldown(c.bar, c.last_exit, c.cooldown) == c.expected);
    }
}
