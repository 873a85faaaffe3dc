// Note [Accounting quantum] and Note [Decimal grid values]: what each rounding
// promises, checked as tables of edge cases and over every account size the
// spec accepts (1e2 ... 1e12).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "reference/accounting/fills.h"
#include "reference/accounting/funding.h"
#include "reference/accounting/quantize.h"
#include "reference/portfolio/settle_funding.h"

using namespace btforge;

namespace {

// x as a whole number of quanta; exact whenever |x| < 2^23 (x * 2^40 < 2^63).
bool whole_quanta(double x) {
    const double scaled = x * 0x1p40;
    return scaled == std::floor(scaled);
}

}  // namespace

TEST_CASE("quantize: the nearest multiple of 2^-40, ties away from zero") {
    struct Case { double x, expected; };
    const Case cases[] = {
        {0.0, 0.0},
        {0x1p-40, 0x1p-40},
        {0x1p-41, 0x1p-40},            // a tie goes away from zero
        {-0x1p-41, -0x1p-40},
        {0x1p-41 - 0x1p-60, 0.0},      // just below the tie
        {3 * 0x1p-42, 0x1p-40},        // 0.75 quanta
        {1e-13, 0.0},                  // below half a quantum
        {4096.0 + 0x1p-40, 4096.0 + 0x1p-40},
        {1e12 + 0.5, 1e12 + 0.5},
    };
    for (const Case& c : cases) {
        CAPTURE(c.x);
        const double q = quantize(c.x);
        CHECK(whole_quanta(q));
        CHECK(std::fabs(q - c.x) <= 0x1p-41);
        CHECK(q == c.expected);
    }
    CHECK(quantize(0.045) == 0.04500000000007276);  // the fee a reader sees in a fills file (docs/ACCOUNTING.md)
}

TEST_CASE("quantize is idempotent everywhere and the identity from 4096 on") {
    std::mt19937_64 rng(29);
    std::uniform_real_distribution<double> exponent(-13.0, 12.5);
    std::uniform_real_distribution<double> sign(-1.0, 1.0);
    for (int i = 0; i < 200000; ++i) {
        const double x = std::copysign(std::pow(10.0, exponent(rng)), sign(rng));
        CAPTURE(x);
        const double q = quantize(x);
        REQUIRE(quantize(q) == q);
        REQUIRE(std::fabs(q - x) <= 0x1p-41);
        if (std::fabs(x) >= 4096.0) REQUIRE(q == x);
    }
}

TEST_CASE("sums of amounts are exact below 8192") {
    // a, b and a + b as whole numbers of quanta: the double sum is the exact sum.
    std::mt19937_64 rng(8192);
    std::uniform_real_distribution<double> amount(-4095.0, 4095.0);
    for (int i = 0; i < 200000; ++i) {
        const double a = quantize(amount(rng));
        const double b = quantize(amount(rng) * 1e-3);
        const auto qa = static_cast<std::int64_t>(a * 0x1p40);
        const auto qb = static_cast<std::int64_t>(b * 0x1p40);
        CAPTURE(a);
        CAPTURE(b);
        REQUIRE(static_cast<std::int64_t>((a + b) * 0x1p40) == qa + qb);
        REQUIRE(quantize(a + b) == a + b);
    }
}

TEST_CASE("every account size from 1e2 to 1e12: a zero settlement leaves the cash bit for bit") {
    // Under the old rule round(x * 1e12) / 1e12 a cash of 10,000.000000000002
    // (or most amounts above 9,007) moved by an ulp on every booking.
    for (double size = 1e2; size <= 1e12; size *= 10.0) {
        for (const double cents : {0.0, 0.01, 0.37, 123.456789}) {
            const double start = quantize(size + cents);
            CAPTURE(start);
            Account account{start, 0.0, 0.0};
            Holding h{1, 2.0, 100.0, 200.0, 0.0, 50.0, 0.0};
            for (int k = 0; k < 1000; ++k) apply_funding(account, h, funding_delta(+1, 2.0, 100.0, 0.0));
            CHECK(account.cash == start);
            CHECK(account.funding_paid == 0.0);
            // a fee-free round trip at the same price leaves it too
            Holding trade{0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
            apply_open_fill(account, trade, +1, 3.0, 101.25, 0.0, 1.0);
            apply_close_fill(account, trade, 3.0, 101.25, 0.0, nullptr);
            CHECK(account.cash == start);
            // a real fee moves the cash by that fee exactly while the cash stays below 8192,
            // and by the fee rounded once above
            Holding fee_trade{0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
            const double fee = apply_open_fill(account, fee_trade, +1, 3.0, 101.25, 0.0005, 1.0);
            CHECK(fee == quantize(3.0 * 101.25 * 0.0005));
            CHECK(account.cash == start - fee);
        }
    }
}

TEST_CASE("to_decimal_grid: the double nearest a whole number of 1e-12") {
    struct Case { double y, expected; };
    const Case cases[] = {
        {0.1 + 0.2, 0.3},
        {-0.1 - 0.2, -0.3},
        {3 * 0.1, 0.3},
        {2.5e-12, 3e-12},    // half away from zero
        {-2.5e-12, -3e-12},
        {1.0000000000004, 1.0},
        {100.01 * 1.0, 100.01},
        {0.0, 0.0},
    };
    for (const Case& c : cases) {
        CAPTURE(c.y);
        CHECK(to_decimal_grid(c.y) == c.expected);
    }
}

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool same_account(const Account& a, const Account& b) {
    return same_bits(a.cash, b.cash) && same_bits(a.fees_paid, b.fees_paid) && same_bits(a.funding_paid, b.funding_paid);
}

bool same_holding(const Holding& a, const Holding& b) {
    return a.side == b.side && same_bits(a.qty, b.qty) && same_bits(a.entry_price, b.entry_price) &&
           same_bits(a.entry_notional, b.entry_notional) && same_bits(a.trade_pnl, b.trade_pnl) &&
           same_bits(a.margin, b.margin) && same_bits(a.cushion, b.cushion);
}

// An amount as the accounting can hold it: quantized, and never -0 (sums of
// amounts that start at +0 do not give -0; `+ 0.0` turns a -0 into +0).
double amount(double x) { return quantize(x) + 0.0; }

}  // namespace

TEST_CASE("a funding rate of 0 settles nothing: every amount stays bit for bit at every account size") {
    // Under the old rule round(x * 1e12) / 1e12 a settlement at a rate of 0
    // moved the cash of most accounts above 9,007 by an ulp. apply_funding of
    // a zero payment (either side, so +0 and -0) is now the identity on any
    // state an open holding can be in.
    std::mt19937_64 rng(30);
    std::uniform_real_distribution<double> exponent(-3.0, 12.0);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int i = 0; i < 100000; ++i) {
        const double size = std::pow(10.0, exponent(rng));
        Account account{amount(size * (1.0 + unit(rng))), amount(size * 1e-3 * std::fabs(unit(rng))),
                        amount(size * 1e-4 * unit(rng))};
        const int side = unit(rng) < 0.0 ? -1 : 1;
        const double qty = to_decimal_grid(std::fabs(unit(rng)) * 100.0 + 0.001);
        const double price = to_decimal_grid(std::pow(10.0, exponent(rng) - 3.0));
        Holding h{side, qty, price, amount(qty * price), amount(size * 1e-2 * unit(rng)),
                  amount(qty * price * std::fabs(unit(rng))), 0.0};
        if (i % 7 == 0) h.trade_pnl = 0.0;
        if (i % 11 == 0) account.funding_paid = 0.0;
        const Account account_before = account;
        const Holding h_before = h;
        CAPTURE(account_before.cash);
        apply_funding(account, h, funding_delta(side, qty, price, 0.0));
        REQUIRE(same_account(account, account_before));
        REQUIRE(same_holding(h, h_before));
        // Note [Markets without funding]: why a market whose rates are all 0
        // may skip its settlements; here one is looked at (3 funding times).
        const std::int32_t events = 3;
        const double rate = 0.0;
        MarketView bar{};
        bar.n_symbols = 1;
        bar.n_bars = 1;
        bar.bar_stride = 1;
        bar.open = &price;
        bar.funding_rate = &rate;
        bar.funding_events = &events;
        settle_funding(account, h, nullptr, fill_context(0, 0, 0), bar, 0);
        REQUIRE(same_account(account, account_before));
        REQUIRE(same_holding(h, h_before));
    }
}
