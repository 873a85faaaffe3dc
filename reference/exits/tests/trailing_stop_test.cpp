// Note [Trailing stop], one table: every expected stop and best price worked
// by hand from the entry, the unit and the bar.
#include <doctest/doctest.h>

#include "reference/exits/trailing_stop.h"

using namespace btforge;

namespace {

struct TrailCase {
    const char* what;
    int side;
    double entry, unit, trail, activate;  // trail and activate in units
    double best, stop;                    // before the bar
    double high, low, tick;
    double expected_best, expected_stop;
};

}  // namespace

TEST_CASE("Note [Trailing stop]: activation, the trail behind the best price, never looser, off at 0") {
    const TrailCase cases[] = {
        {"long, not yet in profit by the activation distance", 1, 100, 2, 1, 2, 100, 95, 103.9, 99, 0.1, 103.9, 95},
        {"long, activated at exactly 2 units: the stop trails 1 unit behind", 1, 100, 2, 1, 2, 100, 95, 104, 99, 0.1,
         104, 102},
        {"long, a trail below the stop does not loosen it", 1, 100, 2, 3, 1, 100, 99, 104, 99, 0.1, 104, 99},
        {"long, the best price is kept from earlier bars", 1, 100, 2, 1, 2, 106, 104, 103, 101, 0.1, 106, 104},
        {"long, rounded to the tick", 1, 100, 1.5, 1, 1, 100, 95, 103.33, 99, 0.25, 103.33, 101.75},
        {"short mirrors: activated by the low", -1, 100, 2, 1, 2, 100, 105, 101, 96, 0.1, 96, 98},
        {"short, not activated", -1, 100, 2, 1, 2, 100, 105, 101, 96.5, 0.1, 96.5, 105},
        {"short, never looser", -1, 100, 2, 3, 1, 100, 101, 101, 96, 0.1, 96, 101},
        {"off: trail 0 leaves best and stop untouched", 1, 100, 2, 0, 0, 100, 95, 120, 99, 0.1, 100, 95},
    };
    for (const TrailCase& c : cases) {
        CAPTURE(c.what);
        double best = c.best;
        double stop = c.stop;
        update_trailing_stop(c.side, c.entry, c.unit, c.trail, c.activate, c.high, c.low, &c.tick, best, stop);
        CHECK(best == c.expected_best);
        CHECK(stop == doctest::Approx(c.expected_stop).epsilon(1e-12));
    }
}
