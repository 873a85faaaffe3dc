#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "reference/accounting/fee_model.h"
#include "reference/accounting/fills.h"
#include "reference/accounting/funding.h"
#include "reference/accounting/mark_to_market.h"
#include "reference/accounting/partial_close.h"
#include "reference/accounting/quantize.h"

using namespace btforge;

TEST_CASE("quantize rounds to 1e-12, half away from zero") {
    CHECK(quantize(1.0000000000004) == 1.0);
    CHECK(quantize(0.1 + 0.2) == 0.3);
    CHECK(quantize(-0.1 - 0.2) == -0.3);
    CHECK(quantize(2.5e-12) == 3e-12);
    CHECK(quantize(-2.5e-12) == -3e-12);
}

// Note [Accounting quantum]: quantize is idempotent for every finite double,
// so an amount stored once is never moved again. The old rule,
// round(x * 1e12) / 1e12 everywhere, failed this on doubles from 4096 up
// (at 10,000 the product is already an integer and the division returns a
// neighbour of x).
TEST_CASE("quantize is idempotent at every scale") {
    const auto stable = [](double x) {
        const double once = quantize(x);
        return quantize(once) == once && quantize(-once) == -once;
    };
    // Every double within 2^24 ulps of the places where the rule or the
    // product's spacing changes: 4096 (the limit), 2^52 / 1e12 and 8192,
    // 2^53 / 1e12.
    for (double at : {2048.0, 4096.0, 4503.599627370496, 8192.0, 9007.199254740992}) {
        long unstable = 0;
        double below = at, above = at;
        for (int i = 0; i < (1 << 24); ++i) {
            below = std::nextafter(below, 0.0);
            above = std::nextafter(above, 1e300);
            unstable += stable(below) ? 0 : 1;
            unstable += stable(above) ? 0 : 1;
        }
        CAPTURE(at);
        CHECK(unstable == 0);
    }
    // Random amounts at every scale an account can hold (1e-12 .. 1e12).
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    long unstable = 0;
    for (int decade = -12; decade <= 12; ++decade) {
        for (int i = 0; i < 200000; ++i) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            const double unit = static_cast<double>(state >> 11) * 0x1.0p-53;  // [0, 1)
            unstable += stable((1.0 + 9.0 * unit) * std::pow(10.0, decade)) ? 0 : 1;
        }
    }
    CHECK(unstable == 0);
}

TEST_CASE("quantize rounds below 4096 and keeps larger amounts as they are") {
    CHECK(quantize(4095.0000000000005) == 4095.000000000001);  // 0.5e-12 rounds away from zero
    CHECK(quantize(4096.0000000000005) == 4096.0000000000005);
    CHECK(quantize(10000.000000000002) == 10000.000000000002);
    CHECK(quantize(1e12 + 0.5) == 1e12 + 0.5);
    CHECK(std::isnan(quantize(std::nan(""))));
}

// A settlement at a funding rate of 0 leaves every amount where it was, at
// every account size the spec accepts (1e2 .. 1e12, random amounts in each
// decade); under the old rule an amount between 4096 and 9007 could move by
// an ulp.
TEST_CASE("a funding rate of 0 moves nothing at any account size") {
    std::uint64_t state = 0x2545F4914F6CDD1Dull;
    const auto uniform = [&state] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(state >> 11) * 0x1.0p-53;
    };
    long moved = 0;
    for (double equity = 1e2; equity <= 1e12; equity *= 10.0) {
        for (int i = 0; i < 20000; ++i) {
            Account account{};
            account.cash = quantize(equity * (1.0 + 9.0 * uniform()));
            Holding holding{};
            holding.side = 1;
            holding.qty = 0.5;
            holding.margin = quantize(account.cash * uniform());
            holding.trade_pnl = quantize(-account.cash * uniform());
            const Account before = account;
            const Holding held = holding;
            for (int settlement = 0; settlement < 3; ++settlement) {
                apply_funding(account, holding, funding_delta(holding.side, holding.qty, 30000.0, 0.0));
            }
            moved += (account.cash != before.cash || account.funding_paid != before.funding_paid ||
                      holding.margin != held.margin || holding.trade_pnl != held.trade_pnl)
                         ? 1
                         : 0;
        }
    }
    CHECK(moved == 0);
}

// Rounding moves an amount by less than one quantum, and from 4096 on not at
// all: there every double is within a quantum of a multiple of 1e-12, and the
// old rule's division moved 7.5% of amounts above 9007 by an ulp of 1.8e-12
// or more.
TEST_CASE("quantize moves an amount by less than one quantum") {
    std::uint64_t state = 0xDA942042E4DD58B5ull;
    long too_far = 0, moved_large = 0;
    for (int decade = -12; decade <= 12; ++decade) {
        for (int i = 0; i < 100000; ++i) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            const double x = (1.0 + 9.0 * static_cast<double>(state >> 11) * 0x1.0p-53) * std::pow(10.0, decade);
            const double q = quantize(x);
            too_far += std::fabs(q - x) < 1e-12 ? 0 : 1;
            moved_large += (x >= 4096.0 && q != x) ? 1 : 0;
        }
    }
    CHECK(too_far == 0);
    CHECK(moved_large == 0);
}

TEST_CASE("floor_to_step keeps whole steps despite representation error") {
    struct Case { double qty, step, expected; };
    const Case cases[] = {
        {0.3, 0.1, 0.3},        // 0.3 / 0.1 = 2.9999999999999996
        {0.35, 0.1, 0.3},
        {1.0, 0.001, 1.0},
        {0.0009, 0.001, 0.0},
        {12.3456, 0.01, 12.34},
        {5.0, 1.0, 5.0},
    };
    for (const Case& c : cases) {
        CAPTURE(c.qty);
        CAPTURE(c.step);
        CHECK(floor_to_step(c.qty, c.step) == c.expected);
    }
}

TEST_CASE("round_to_tick goes to the nearest tick") {
    CHECK(round_to_tick(100.004, 0.01) == 100.0);
    CHECK(round_to_tick(100.006, 0.01) == 100.01);
    CHECK(round_to_tick(0.123456, 0.0001) == 0.1235);
}

TEST_CASE("slippage is against the trader and only for takers") {
    AccountConfig config{10000, 0.0002, 0.0005, 0.001, 8766, 0, kCrossMargin};
    CHECK(slipped_price(config, 100.0, +1, kTaker) == doctest::Approx(100.1).epsilon(1e-15));
    CHECK(slipped_price(config, 100.0, -1, kTaker) == doctest::Approx(99.9).epsilon(1e-15));
    CHECK(slipped_price(config, 100.0, +1, kMaker) == 100.0);
    CHECK(fee_rate(config, kMaker) == 0.0002);
    CHECK(fee_rate(config, kTaker) == 0.0005);
}

TEST_CASE("open and close fills move cash by fee and realized PnL") {
    Account account{1000.0, 0.0, 0.0};
    Holding h{0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    double fee = apply_open_fill(account, h, +1, 2.0, 100.0, 0.001, 4.0);  // notional 200, fee 0.2, margin 50
    CHECK(fee == 0.2);
    CHECK(account.cash == 999.8);
    CHECK(h.side == 1);
    CHECK(h.qty == 2.0);
    CHECK(h.entry_price == 100.0);
    CHECK(h.entry_notional == 200.0);
    CHECK(h.trade_pnl == -0.2);
    CHECK(h.margin == 50.0);  // Note [Cross and isolated margin]: 200 / 4, the fee is the cash's

    SUBCASE("a partial close keeps the rest open at the same entry") {
        double close_fee = 0.0;
        double pnl = apply_close_fill(account, h, 0.5, 110.0, 0.001, &close_fee);  // +5, fee 0.055
        CHECK(pnl == 5.0);
        CHECK(close_fee == 0.055);
        CHECK(account.cash == 999.8 + 5.0 - 0.055);
        CHECK(h.side == 1);
        CHECK(h.qty == 1.5);
        CHECK(h.trade_pnl == quantize(-0.2 + 5.0 - 0.055));
        CHECK(h.margin == 37.5);  // a quarter of the quantity closed, a quarter of the margin released
    }
    SUBCASE("closing everything goes flat") {
        double pnl = apply_close_fill(account, h, 2.0, 90.0, 0.001, nullptr);  // -20, fee 0.18
        CHECK(pnl == -20.0);
        CHECK(h.side == 0);
        CHECK(h.qty == 0.0);
        CHECK(account.cash == quantize(999.8 - 20.0 - 0.18));
        CHECK(account.fees_paid == quantize(0.2 + 0.18));
        CHECK(h.margin == 0.0);
    }
    SUBCASE("a short gains when the price falls") {
        Holding s{0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        apply_open_fill(account, s, -1, 1.0, 50.0, 0.0, 1.0);
        CHECK(apply_close_fill(account, s, 1.0, 40.0, 0.0, nullptr) == 10.0);
    }
    SUBCASE("adding to a holding averages the entry price") {
        apply_open_fill(account, h, +1, 2.0, 110.0, 0.0, 2.0);
        CHECK(h.qty == 4.0);
        CHECK(h.entry_price == 105.0);
        CHECK(h.entry_notional == 420.0);
        CHECK(h.margin == 50.0 + 110.0);  // each fill posts its own notional over its own leverage
    }
}

TEST_CASE("funding: longs pay a positive rate, shorts receive it") {
    CHECK(funding_delta(+1, 2.0, 100.0, 0.0001) == 0.02);
    CHECK(funding_delta(-1, 2.0, 100.0, 0.0001) == -0.02);
    CHECK(funding_delta(+1, 2.0, 100.0, -0.0001) == -0.02);
    Account account{1000.0, 0.0, 0.0};
    Holding h{1, 2.0, 100.0, 200.0, 0.0, 50.0, 0.0};
    apply_funding(account, h, 0.02);
    CHECK(account.cash == 999.98);
    CHECK(account.funding_paid == 0.02);
    CHECK(h.trade_pnl == -0.02);
    CHECK(h.margin == 49.98);  // isolated margin pays its funding
}

TEST_CASE("partial close plan") {
    struct Case { double qty, fraction, step, min_qty, close_qty; int closes_all; };
    const Case cases[] = {
        {1.0, 0.5, 0.001, 0.001, 0.5, 0},
        {1.0, 0.3333, 0.01, 0.01, 0.33, 0},   // floored to the step
        {0.003, 0.5, 0.001, 0.002, 0.0, 0},    // floored part 0.001 below min_qty: close nothing
        {0.010, 0.9, 0.001, 0.002, 0.010, 1},  // rest 0.001 below min_qty: close everything
        {1.0, 1.0, 0.001, 0.001, 1.0, 1},
        {1.0, 0.0, 0.001, 0.001, 0.0, 0},      // nothing to close
    };
    for (const Case& c : cases) {
        CAPTURE(c.qty);
        CAPTURE(c.fraction);
        PartialClosePlan plan = build_partial_close_plan(c.qty, c.fraction, c.step, c.min_qty);
        CHECK(plan.close_qty == c.close_qty);
        CHECK(plan.closes_all == c.closes_all);
    }
}

TEST_CASE("mark to market") {
    Holding flat{0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    CHECK(mark_to_market_pnl(flat, 123.0) == 0.0);
    Holding long_h{1, 2.0, 100.0, 200.0, 0.0, 0.0, 0.0};
    CHECK(mark_to_market_pnl(long_h, 105.0) == 10.0);
    Holding short_h{-1, 2.0, 100.0, 200.0, 0.0, 0.0, 0.0};
    CHECK(mark_to_market_pnl(short_h, 105.0) == -10.0);
}
