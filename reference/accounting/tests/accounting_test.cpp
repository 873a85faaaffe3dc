#include <doctest/doctest.h>

#include "reference/accounting/fee_model.h"
#include "reference/accounting/fills.h"
#include "reference/accounting/funding.h"
#include "reference/accounting/mark_to_market.h"
#include "reference/accounting/partial_close.h"
#include "reference/accounting/quantize.h"

using namespace btforge;

// Expected amounts are written as the accounting books them: each decimal
// amount quantized (Note [Accounting quantum]), and sums of amounts, which are
// exact below 8192.

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
    AccountConfig config{10000, 0.0002, 0.0005, 0.001, 8766, 0, kCrossMargin, 0, 0};
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
    CHECK(fee == quantize(0.2));
    CHECK(account.cash == 1000.0 - quantize(0.2));
    CHECK(h.side == 1);
    CHECK(h.qty == 2.0);
    CHECK(h.entry_price == 100.0);
    CHECK(h.entry_notional == 200.0);
    CHECK(h.trade_pnl == quantize(-0.2));
    CHECK(h.margin == 50.0);  // Note [Cross and isolated margin]: 200 / 4, the fee is the cash's

    SUBCASE("a partial close keeps the rest open at the same entry") {
        double close_fee = 0.0;
        double pnl = apply_close_fill(account, h, 0.5, 110.0, 0.001, &close_fee);  // +5, fee 0.055
        CHECK(pnl == 5.0);
        CHECK(close_fee == quantize(0.055));
        CHECK(account.cash == 1000.0 - quantize(0.2) + 5.0 - quantize(0.055));
        CHECK(h.side == 1);
        CHECK(h.qty == 1.5);
        CHECK(h.trade_pnl == -quantize(0.2) + 5.0 - quantize(0.055));
        CHECK(h.margin == 37.5);  // a quarter of the quantity closed, a quarter of the margin released
    }
    SUBCASE("closing everything goes flat") {
        double pnl = apply_close_fill(account, h, 2.0, 90.0, 0.001, nullptr);  // -20, fee 0.18
        CHECK(pnl == -20.0);
        CHECK(h.side == 0);
        CHECK(h.qty == 0.0);
        CHECK(account.cash == 1000.0 - quantize(0.2) - 20.0 - quantize(0.18));
        CHECK(account.fees_paid == quantize(0.2) + quantize(0.18));
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
    CHECK(funding_delta(+1, 2.0, 100.0, 0.0001) == quantize(0.02));
    CHECK(funding_delta(-1, 2.0, 100.0, 0.0001) == quantize(-0.02));
    CHECK(funding_delta(+1, 2.0, 100.0, -0.0001) == quantize(-0.02));
    Account account{1000.0, 0.0, 0.0};
    Holding h{1, 2.0, 100.0, 200.0, 0.0, 50.0, 0.0};
    apply_funding(account, h, quantize(0.02));
    CHECK(account.cash == 1000.0 - quantize(0.02));
    CHECK(account.funding_paid == quantize(0.02));
    CHECK(h.trade_pnl == quantize(-0.02));
    CHECK(h.margin == 50.0 - quantize(0.02));  // isolated margin pays its funding
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
