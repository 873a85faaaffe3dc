// The resting entry rules of reference/orders/, one table per rule, every
// expected price worked by hand from the bar.
#include <doctest/doctest.h>

#include <cmath>

#include "reference/orders/limit_entry_fill.h"
#include "reference/orders/resting_entry.h"
#include "reference/orders/resting_entry_fill.h"
#include "reference/orders/stop_entry_fill.h"

using namespace btforge;

namespace {

struct Bar {
    double open, high, low;
};

struct FillCase {
    const char* what;
    int side;
    double price;  // the limit or the stop
    Bar bar;
    double expected;  // NaN: no fill
};

void check_fill(double got, double expected) {
    if (std::isnan(expected)) {
        CHECK(std::isnan(got));
    } else {
        CHECK(got == expected);
    }
}

const double kNone = std::nan("");

}  // namespace

TEST_CASE("Note [Limit entry fill]: touched, gapped through, not reached; the sell side mirrors") {
    const FillCase cases[] = {
        {"buy 97, low reaches it: the limit", 1, 97.0, {98.0, 98.5, 96.8}, 97.0},
        {"buy 97, low exactly 97: touching fills", 1, 97.0, {98.0, 98.5, 97.0}, 97.0},
        {"buy 97, opens at 96: the open, better", 1, 97.0, {96.0, 96.5, 95.5}, 96.0},
        {"buy 97, opens exactly at 97: the open", 1, 97.0, {97.0, 99.0, 97.0}, 97.0},
        {"buy 97, low 97.01: no fill", 1, 97.0, {98.0, 99.0, 97.01}, kNone},
        {"buy 97, high through it but not the low: no fill", 1, 97.0, {98.0, 99.0, 97.5}, kNone},
        {"sell 103, high reaches it: the limit", -1, 103.0, {102.0, 103.2, 101.0}, 103.0},
        {"sell 103, opens at 104: the open, better", -1, 103.0, {104.0, 104.5, 103.5}, 104.0},
        {"sell 103, high 102.99: no fill", -1, 103.0, {102.0, 102.99, 101.0}, kNone},
    };
    for (const FillCase& c : cases) {
        CAPTURE(c.what);
        check_fill(limit_entry_fill_price(c.side, c.price, c.bar.open, c.bar.high, c.bar.low), c.expected);
    }
}

TEST_CASE("Note [Stop entry fill]: touched, gapped through (worse), not reached; the sell side mirrors") {
    const FillCase cases[] = {
        {"buy stop 103, high reaches it: the stop", 1, 103.0, {102.5, 103.5, 102.0}, 103.0},
        {"buy stop 103, opens at 104: the open, worse", 1, 103.0, {104.0, 105.0, 103.5}, 104.0},
        {"buy stop 103, high 102.9: no fill", 1, 103.0, {102.0, 102.9, 101.0}, kNone},
        {"buy stop 103, low below it only: no fill", 1, 103.0, {102.0, 102.5, 90.0}, kNone},
        {"sell stop 97, low reaches it: the stop", -1, 97.0, {98.0, 98.5, 96.5}, 97.0},
        {"sell stop 97, opens at 95: the open, worse", -1, 97.0, {95.0, 96.0, 94.0}, 95.0},
        {"sell stop 97, low 97.1: no fill", -1, 97.0, {98.0, 99.0, 97.1}, kNone},
    };
    for (const FillCase& c : cases) {
        CAPTURE(c.what);
        check_fill(stop_entry_fill_price(c.side, c.price, c.bar.open, c.bar.high, c.bar.low), c.expected);
    }
}

TEST_CASE("Note [Resting entry orders]: placed at the close of bar t, live on bars t+1 .. t+N") {
    RestingEntry order;
    cancel_resting_entry(order);
    CHECK(resting_entry_live(order, 0) == 0);
    place_resting_entry(order, kLimitEntry, 1, 97.0, 10, 3);
    CHECK(resting_entry_live(order, 11) == 1);
    CHECK(resting_entry_live(order, 13) == 1);
    CHECK(resting_entry_live(order, 14) == 0);
    place_resting_entry(order, kLimitEntry, 1, 94.0, 12, 3);  // replaced: counts from the new placement
    CHECK(order.price == 94.0);
    CHECK(resting_entry_live(order, 15) == 1);
    CHECK(resting_entry_live(order, 16) == 0);
    place_resting_entry(order, kStopEntry, -1, 97.0, 20, 0);  // fewer than one bar means the next bar
    CHECK(resting_entry_live(order, 21) == 1);
    CHECK(resting_entry_live(order, 22) == 0);
}

TEST_CASE("a resting entry's role and slippage: a limit is a maker at its price, a stop a taker slipped against") {
    AccountConfig config{10000.0, 0.0002, 0.0005, 0.001, 1.0, 0, kCrossMargin, 0, 0};
    RestingEntry order;
    place_resting_entry(order, kLimitEntry, 1, 97.0, 0, 1);
    RestingEntryFill limit = try_fill_resting_entry(order, config, 98.0, 98.5, 96.8);
    CHECK(limit.filled == 1);
    CHECK(limit.role == kMaker);
    CHECK(limit.quote == 97.0);
    CHECK(limit.price == 97.0);  // no slippage on a maker fill
    place_resting_entry(order, kStopEntry, 1, 103.0, 0, 1);
    RestingEntryFill stop = try_fill_resting_entry(order, config, 102.5, 103.5, 102.0);
    CHECK(stop.filled == 1);
    CHECK(stop.role == kTaker);
    CHECK(stop.quote == 103.0);
    CHECK(stop.price == 103.0 * (1.0 + 0.001));
    place_resting_entry(order, kStopEntry, -1, 97.0, 0, 1);
    RestingEntryFill short_stop = try_fill_resting_entry(order, config, 95.0, 96.0, 94.0);
    CHECK(short_stop.quote == 95.0);
    CHECK(short_stop.price == 95.0 * (1.0 - 0.001));  // a sell slips down
    RestingEntryFill none = try_fill_resting_entry(order, config, 100.0, 100.0, 100.0);
    CHECK(none.filled == 0);
    // Note [A fill inside the bar meets its stop in that bar]
    CHECK(stop_reference_open(limit, 98.0) == 97.0);
    CHECK(stop_reference_open(none, 100.0) == 100.0);
}
