// The margin rules of reference/margin/, reference/exits/liquidation.h and
// reference/accounting/liquidation_fill.h, one table per rule, every
// expected number worked by hand from the published formulas; and the
// liquidation price against Binance's own procedure on random positions.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "reference/accounting/liquidation_fill.h"
#include "reference/exits/liquidation.h"
#include "reference/margin/default_margin_schedule.h"
#include "reference/margin/liquidation_price.h"
#include "reference/margin/maintenance_margin.h"

using namespace btforge;

namespace {

MarginSchedule one_tier(double rate, double fee) {
    MarginSchedule s{};
    s.n_tiers = 1;
    s.liquidation_fee = fee;
    s.rate[0] = rate;
    return s;
}

bool close_to(double got, double expected, double relative = 1e-12) {
    return std::fabs(got - expected) <= relative * std::fmax(1.0, std::fabs(expected));
}

// Binance's procedure as its FAQ states it ("How to Calculate Liquidation
// Price of USDⓈ-M Futures Contracts"): take the tier of the position's
// notional at its entry, compute LP1 with that tier's rate and maintenance
// amount; "if your position (calculated at the liquidation price) and the
// current position (calculated at the opening price) are of different
// levels, then you must substitute (calculate at the liquidation price) the
// maintenance margin rate and the maintenance margin amount of the position
// level, to recalculate the liquidation price". An algorithm of its own (a
// search over tiers), against the reference's maximum or minimum.
double binance_liquidation_price(int side, double qty, double entry, double balance, const MarginSchedule& s) {
    auto tier_of = [&](double notional) {
        int k = 0;
        while (k + 1 < s.n_tiers && notional >= s.notional_floor[k + 1]) ++k;
        return k;
    };
    auto lp = [&](int k) {
        return (balance + s.amount[k] - side * qty * entry) / (qty * s.rate[k] - side * qty);
    };
    int k = tier_of(qty * entry);
    for (int step = 0; step < 2 * kMaxMarginTiers; ++step) {
        const double price = lp(k);
        const int at_price = tier_of(qty * std::fmax(price, 0.0));
        if (at_price == k) return price;
        k = at_price;
    }
    return lp(k);  // not reached for a continuous, convex schedule
}

}  // namespace

TEST_CASE("Note [Default margin schedule]: Binance's BTCUSDT brackets and the FAQ's examples") {
    const MarginSchedule s = default_margin_schedule();
    REQUIRE(s.n_tiers == 10);
    // The FAQ: "if the position size ... is 264,000 USDT, then the maintenance margin rate would be 1%".
    CHECK(maintenance_margin(s, 264000.0) == 264000.0 * 0.01 - 1300.0);
    // "... 500,000 USDT, then the maintenance amount would be 1,300 USDT", = 250,000 * (1% - 0.5%) + 50.
    CHECK(s.amount[2] == 1300.0);
    CHECK(s.amount[2] == 250000.0 * (0.01 - 0.005) + 50.0);
    CHECK(maintenance_margin(s, 500000.0) == 3700.0);
    // Every amount is the continuous one (Note [Maintenance margin tiers]).
    for (int k = 1; k < s.n_tiers; ++k) {
        CAPTURE(k);
        CHECK(close_to(s.amount[k], s.amount[k - 1] + s.notional_floor[k] * (s.rate[k] - s.rate[k - 1])));
        CHECK(s.rate[k] >= s.rate[k - 1]);
    }
}

TEST_CASE("Note [Maintenance margin tiers]: the tier that holds the notional, continuous at each floor") {
    const MarginSchedule s = default_margin_schedule();
    struct Case {
        double notional, expected;
    };
    const Case cases[] = {
        {0.0, 0.0},
        {10000.0, 40.0},                  // tier 1: 0.4%
        {49999.0, 49999.0 * 0.004},       // still tier 1
        {50000.0, 50000.0 * 0.005 - 50},  // tier 2 from its floor: 200, as tier 1's line gives there
        {100000.0, 450.0},                // 0.5% - 50
        {250000.0, 1200.0},               // tier 3's floor: 1% - 1300 = 0.5% - 50
        {2e6, 2e6 * 0.025 - 16300.0},     // tier 4
        {400e6, 400e6 * 0.5 - 100016300.0},  // the last tier
    };
    for (const Case& c : cases) {
        CAPTURE(c.notional);
        CHECK(close_to(maintenance_margin(s, c.notional), c.expected));
    }
    // Continuity: just below and at every floor.
    for (int k = 1; k < s.n_tiers; ++k) {
        const double floor = s.notional_floor[k];
        CAPTURE(floor);
        CHECK(close_to(maintenance_margin(s, std::nextafter(floor, 0.0)), maintenance_margin(s, floor), 1e-12));
    }
}

TEST_CASE("Note [Liquidation price]: hand-worked, long and short, one tier and across tiers") {
    const MarginSchedule flat = one_tier(0.01, 0.02);
    const MarginSchedule binance = default_margin_schedule();
    struct Case {
        const char* what;
        int side;
        double qty, entry, balance;
        const MarginSchedule* schedule;
        double expected;
    };
    const Case cases[] = {
        // (B - Q EP) / (Q r - Q): 10x on 10,000 of cash.
        {"long 1000 @100, B 10000, 1%", 1, 1000.0, 100.0, 10000.0, &flat, -90000.0 / -990.0},  // 90.9091
        {"short 1000 @100, B 10000, 1%", -1, 1000.0, 100.0, 10000.0, &flat, 110000.0 / 1010.0},  // 108.9109
        // Isolated 10x: margin 5,000 on 50,000 of BTC at 50,000, Binance tier 1 (0.4%).
        {"long 1 BTC @50000, margin 5000", 1, 1.0, 50000.0, 5000.0, &binance, -45000.0 / -0.996},  // 45180.72
        // The short's tier-1 price, 55000 / 1.004 = 54780.88, holds a notional of 54,781: tier 2 (0.5%,
        // amount 50) applies there, and gives the lower price.
        {"short 1 BTC @50000, margin 5000", -1, 1.0, 50000.0, 5000.0, &binance, 55050.0 / 1.005},  // 54776.12
        // 500,000 at entry (tier 3 at 1%, amount 1,300), isolated 20x: the price stays in tier 3.
        {"long 10 BTC @50000, margin 25000", 1, 10.0, 50000.0, 25000.0, &binance, (25000.0 + 1300.0 - 500000.0) / (0.1 - 10.0)},
        // 50,500 at entry (tier 2), 10x: at the liquidation price the notional is 45,632, tier 1's rate applies.
        {"long 1.01 BTC @50000, margin 5050", 1, 1.01, 50000.0, 5050.0, &binance, (5050.0 - 50500.0) / (1.01 * 0.004 - 1.01)},
        // 250,000 at entry (tier 3's floor), cross on 10,000: the price falls into tier 2 (0.5%, amount 50).
        {"long 2500 @100, B 10000", 1, 2500.0, 100.0, 10000.0, &binance, (10000.0 + 50.0 - 250000.0) / (12.5 - 2500.0)},
        // A long whose balance covers everything: no positive liquidation price.
        {"long 1 @100, B 200", 1, 1.0, 100.0, 200.0, &flat, -100.0 / -0.99 * -1.0},
    };
    for (const Case& c : cases) {
        CAPTURE(std::string(c.what));
        CHECK(close_to(liquidation_price(c.side, c.qty, c.entry, c.balance, *c.schedule), c.expected, 1e-14));
    }
    // At the price, the margin balance meets the maintenance margin there.
    for (const Case& c : cases) {
        const double p = liquidation_price(c.side, c.qty, c.entry, c.balance, *c.schedule);
        if (p <= 0.0) continue;
        CAPTURE(std::string(c.what));
        const double balance_at = c.balance + c.side * c.qty * (p - c.entry);
        CHECK(close_to(balance_at, maintenance_margin(*c.schedule, c.qty * p), 1e-9));
    }
}

TEST_CASE("Note [Liquidation price]: the tier found without a division is Binance's procedure, and the max/min over tiers") {
    // 20,000 random positions on Binance's brackets and on random convex schedules.
    std::mt19937_64 rng(20261125);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    auto random_schedule = [&] {
        MarginSchedule s{};
        s.n_tiers = 1 + static_cast<int>(rng() % kMaxMarginTiers);
        s.liquidation_fee = 0.01;
        double floor = 0.0, rate = 0.001 + 0.01 * unit(rng), amount = 0.0;
        for (int k = 0; k < s.n_tiers; ++k) {
            if (k > 0) {
                floor += std::pow(10.0, 3.0 + 4.0 * unit(rng));
                const double next = std::fmin(0.9, rate * (1.0 + 2.0 * unit(rng)));
                amount += floor * (next - rate);
                rate = next;
            }
            s.notional_floor[k] = floor;
            s.rate[k] = rate;
            s.amount[k] = amount;
        }
        return s;
    };
    int compared = 0, across_tiers = 0;
    for (int i = 0; i < 20000; ++i) {
        const MarginSchedule s = i % 2 == 0 ? default_margin_schedule() : random_schedule();
        const int side = (rng() & 1) != 0 ? 1 : -1;
        const double entry = std::pow(10.0, -2.0 + 7.0 * unit(rng));
        const double notional = std::pow(10.0, 2.0 + 7.0 * unit(rng));
        const double qty = notional / entry;
        const double leverage = 1.0 + 124.0 * unit(rng);
        const double balance = notional / leverage;
        const double ours = liquidation_price(side, qty, entry, balance, s);
        const double theirs = binance_liquidation_price(side, qty, entry, balance, s);
        double extreme = 0.0;  // MM is the largest of the tiers' lines: the long's price is the largest P_k
        for (int k = 0; k < s.n_tiers; ++k) {
            const double p_k = (balance + s.amount[k] - side * qty * entry) / (qty * s.rate[k] - side * qty);
            if (k == 0 || (side > 0 ? p_k > extreme : p_k < extreme)) extreme = p_k;
        }
        if (side > 0 && theirs <= 0.0) continue;  // never liquidated: Binance shows "--"
        CAPTURE(i);
        CAPTURE(side);
        CAPTURE(qty);
        CAPTURE(entry);
        CAPTURE(balance);
        CHECK(close_to(ours, theirs, 1e-9));
        CHECK(close_to(ours, extreme, 1e-9));
        compared += 1;
        int entry_tier = 0, price_tier = 0;
        while (entry_tier + 1 < s.n_tiers && notional >= s.notional_floor[entry_tier + 1]) ++entry_tier;
        while (price_tier + 1 < s.n_tiers && qty * theirs >= s.notional_floor[price_tier + 1]) ++price_tier;
        across_tiers += entry_tier != price_tier ? 1 : 0;
    }
    CHECK(compared > 15000);
    CHECK(across_tiers > 300);  // the re-substitution case is exercised (556 of them), not only tier 1
}

TEST_CASE("Note [Liquidation rule]: inside the bar, at the open, not at all; the short mirrors") {
    const MarginSchedule s = one_tier(0.01, 0.02);
    const double lp_long = -90000.0 / -990.0;   // 90.909...
    const double lp_short = 110000.0 / 1010.0;  // 108.910...
    struct Case {
        const char* what;
        int side;
        double open, high, low;
        int outcome;
        double price;
    };
    const Case cases[] = {
        {"long, low above the price", 1, 99.0, 100.0, 91.0, kNotLiquidated, 0.0},
        {"long, low reaches it", 1, 99.0, 100.0, 90.5, kLiquidated, lp_long},
        {"long, low exactly at it", 1, 99.0, 100.0, lp_long, kLiquidated, lp_long},
        {"long, opens below it: the open", 1, 90.0, 91.0, 85.0, kLiquidatedAtOpen, 90.0},
        {"short, high below the price", -1, 101.0, 108.5, 100.0, kNotLiquidated, 0.0},
        {"short, high reaches it", -1, 101.0, 109.5, 100.0, kLiquidated, lp_short},
        {"short, opens above it: the open", -1, 112.0, 113.0, 111.0, kLiquidatedAtOpen, 112.0},
    };
    for (const Case& c : cases) {
        CAPTURE(std::string(c.what));
        const LiquidationCheck check = evaluate_liquidation(c.side, 1000.0, 100.0, 10000.0, s, c.open, c.high, c.low);
        CHECK(check.outcome == c.outcome);
        if (c.outcome != kNotLiquidated) CHECK(close_to(check.price, c.price, 1e-15));
        CHECK(check.balance == 10000.0);
    }
}

TEST_CASE("Note [Liquidation rule]: the liquidation or the stop, whichever the price reaches first from the open") {
    struct Case {
        const char* what;
        int side;
        LiquidationCheck liquidation;
        double stop;
        int stop_outcome;
        int liquidation_first;
    };
    const Case cases[] = {
        {"no liquidation", 1, {kNotLiquidated, 0.0, 0.0}, 95.0, kStopHit, 0},
        {"liquidation at the open beats a gapped stop", 1, {kLiquidatedAtOpen, 90.0, 0.0}, 95.0, kStopGapped, 1},
        {"a gapped stop beats a liquidation inside the bar", 1, {kLiquidated, 91.0, 0.0}, 95.0, kStopGapped, 0},
        {"no stop in the bar", 1, {kLiquidated, 91.0, 0.0}, 80.0, kStopNotHit, 1},
        {"long: stop 95 above the price 91 is reached first", 1, {kLiquidated, 91.0, 0.0}, 95.0, kStopHit, 0},
        {"long: price 91 above the stop 85 is reached first", 1, {kLiquidated, 91.0, 0.0}, 85.0, kStopHit, 1},
        {"long: a tie goes to the liquidation", 1, {kLiquidated, 91.0, 0.0}, 91.0, kStopHit, 1},
        {"short: stop 105 below the price 109 first", -1, {kLiquidated, 109.0, 0.0}, 105.0, kStopHit, 0},
        {"short: price 109 below the stop 115 first", -1, {kLiquidated, 109.0, 0.0}, 115.0, kStopHit, 1},
    };
    for (const Case& c : cases) {
        CAPTURE(std::string(c.what));
        CHECK(liquidation_comes_first(c.liquidation, c.side, c.stop, c.stop_outcome) == c.liquidation_first);
    }
}

TEST_CASE("Note [Liquidation fill]: the fee's cap, and the isolated loss cut at the margin") {
    const double lp = -90000.0 / -990.0;
    Holding h{1, 1000.0, 100.0, 100000.0, 0.0, 10000.0, 0.0};
    struct Case {
        const char* what;
        double price, balance, fee_rate;
        int mode;
        double pnl, fee;
    };
    const double pnl_at_lp = quantize(1000.0 * (lp - 100.0));  // -9090.909...
    const Case cases[] = {
        // At the price the balance left is the maintenance margin, 1% of 90,909.09: the 2% fee is cut to it.
        {"cross, at the price, 2% fee", lp, 10000.0, 0.02, kCrossMargin, pnl_at_lp, quantize(10000.0 + pnl_at_lp)},
        // A 0.5% fee is below it: paid whole, 454.55 of the maintenance margin stays.
        {"cross, at the price, 0.5% fee", lp, 10000.0, 0.005, kCrossMargin, pnl_at_lp, quantize(1000.0 * lp * 0.005)},
        // Opened at 85, through the bankruptcy price at 90: nothing left for a fee; cross keeps the loss.
        {"cross, gap to 85", 85.0, 10000.0, 0.02, kCrossMargin, -15000.0, 0.0},
        // Isolated on its 10,000: the price loss is cut to the margin.
        {"isolated, gap to 85", 85.0, 10000.0, 0.02, kIsolatedMargin, -10000.0, 0.0},
        {"isolated, at the price", lp, 10000.0, 0.02, kIsolatedMargin, pnl_at_lp, quantize(10000.0 + pnl_at_lp)},
    };
    for (const Case& c : cases) {
        CAPTURE(std::string(c.what));
        const LiquidationAmounts a = liquidation_amounts(h, c.price, c.balance, c.fee_rate, c.mode);
        CHECK(a.pnl == c.pnl);
        CHECK(a.fee == c.fee);
    }
}
