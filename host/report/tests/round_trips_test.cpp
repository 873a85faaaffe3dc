#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "host/report/round_trips.h"
#include "reference/accounting/quantize.h"

namespace btforge {
namespace {

// Two symbols, four bars; symbol 0 opens at 100, symbol 1 at 50; one funding
// time settles at bars 1 and 3, at a rate of 0.001.
struct TwoSymbolMarket {
    std::vector<std::int64_t> timestamps = {0, 3'600'000, 7'200'000, 10'800'000};
    std::vector<double> open = {100, 100, 100, 100, 50, 50, 50, 50};
    std::vector<double> rate = std::vector<double>(8, 0.001);
    std::vector<std::int32_t> events = {0, 1, 0, 1, 0, 1, 0, 1};
    std::vector<std::uint8_t> tradable = std::vector<std::uint8_t>(8, 1);

    MarketView view() const {
        MarketView m{};
        m.n_symbols = 2;
        m.n_bars = 4;
        m.bar_stride = 4;
        m.timestamp_ms = timestamps.data();
        m.open = open.data();
        m.high = open.data();  // not read
        m.low = open.data();
        m.close = open.data();
        m.volume = open.data();
        m.funding_rate = rate.data();
        m.funding_events = events.data();
        m.tradable = tradable.data();
        return m;
    }
};

// A fill as the accounting logs it: the hand-worked decimal amounts
// quantized (Note [Accounting quantum]).
FillRecord fill(int bar, int symbol, int reason, int dir, int trade, double qty, double price, double fee, double pnl,
                double cash_after) {
    return FillRecord{bar, symbol, reason, dir, trade, qty, price, quantize(fee), quantize(pnl), quantize(cash_after), 0.0};
}

// A funding settlement as settle_funding logs it (Note [Funding in the fill log]).
FillRecord settlement(int bar, int symbol, int side, int trade, double qty, double price, double paid,
                      double cash_after) {
    return FillRecord{bar, symbol, kFunding, side, trade, qty, price, 0.0, 0.0, quantize(cash_after), quantize(paid)};
}

// A derived amount against its hand-worked decimal: each booking rounds to the
// quantum (2^-40), so the two differ by at most half a quantum per booking.
bool near_amount(double derived, double hand) { return std::fabs(derived - hand) <= 4 * kAmountQuantum; }

// Worked by hand from 1000 of cash; each amount is booked quantized, and the
// cash, below 8192, is their exact sum (Note [Accounting quantum]):
//  bar 0: trade 0 buys 2 of symbol 0 at 100 (fee 0.1): 999.9; trade 1 sells
//         4 of symbol 1 at 50 (fee 0.1): 999.8.
//  bar 1: symbol 0 pays 2*100*0.001 = 0.2: 999.6; then half of trade 0 takes
//         its target at 110 (PnL 10, fee 0.05): 1009.55; symbol 1, short,
//         receives 4*50*0.001 = 0.2: 1009.75.
//  bar 3: the rest of trade 0 exits at the open on a signal at 105 (PnL 5,
//         fee 0.05), before the funding, which it does not pay: 1014.7;
//         symbol 1 receives 0.2: 1014.9; at the close the end of data buys
//         trade 1 back at 45 (PnL 20, fee 0.09): 1034.81.
std::vector<FillRecord> hand_log() {
    double cash = 1000.0;
    std::vector<FillRecord> log;
    auto book = [&](int bar, int symbol, int reason, int dir, int trade, double qty, double price, double fee,
                    double pnl) {
        cash += pnl - quantize(fee);
        log.push_back(fill(bar, symbol, reason, dir, trade, qty, price, fee, pnl, cash));
    };
    auto settle = [&](int bar, int symbol, int side, int trade, double qty, double price, double paid) {
        cash -= quantize(paid);
        log.push_back(settlement(bar, symbol, side, trade, qty, price, paid, cash));
    };
    book(0, 0, kEntry, 1, 0, 2, 100, 0.1, 0);             // 999.9
    book(0, 1, kEntry, -1, 1, 4, 50, 0.1, 0);             // 999.8
    settle(1, 0, 1, 0, 2, 100, 0.2);                      // 999.6
    book(1, 0, kPartialTarget, -1, 0, 1, 110, 0.05, 10);  // 1009.55
    settle(1, 1, -1, 1, 4, 50, -0.2);                     // 1009.75
    book(3, 0, kSignalExit, -1, 0, 1, 105, 0.05, 5);      // 1014.7
    settle(3, 1, -1, 1, 4, 50, -0.2);                     // 1014.9
    book(3, 1, kEndOfData, 1, 1, 4, 45, 0.09, 20);        // 1034.81
    return log;
}

void check_hand_worked_trips(const std::vector<RoundTrip>& trips) {
    REQUIRE(trips.size() == 2);

    const RoundTrip& a = trips[0];
    CHECK(a.trade == 0);
    CHECK(a.symbol == 0);
    CHECK(a.side == 1);
    CHECK(a.entry_bar == 0);
    CHECK(a.entry_price == 100);
    CHECK(a.exit_bar == 3);
    CHECK(a.exit_price == 107.5);  // (1*110 + 1*105) / 2
    CHECK(a.quantity == 2);
    CHECK(near_amount(a.gross_pnl, 15));
    CHECK(near_amount(a.fees, 0.2));
    CHECK(near_amount(a.funding, 0.2));  // bar 1 only
    CHECK(near_amount(a.net_pnl, 14.6));
    CHECK(a.exit_reason == kSignalExit);

    const RoundTrip& b = trips[1];
    CHECK(b.trade == 1);
    CHECK(b.symbol == 1);
    CHECK(b.side == -1);
    CHECK(b.entry_price == 50);
    CHECK(b.exit_bar == 3);
    CHECK(b.exit_price == 45);
    CHECK(b.quantity == 4);
    CHECK(near_amount(b.gross_pnl, 20));
    CHECK(near_amount(b.fees, 0.19));
    CHECK(near_amount(b.funding, -0.4));  // received at bars 1 and 3
    CHECK(near_amount(b.net_pnl, 20.21));
    CHECK(b.exit_reason == kEndOfData);

    CHECK(a.net_pnl + b.net_pnl == doctest::Approx(1034.81 - 1000.0).epsilon(1e-12));
}

TEST_CASE("round trips of a hand-worked log: averages, fees, funding by trade, net PnL") {
    const TwoSymbolMarket market;
    check_hand_worked_trips(derive_round_trips(market.view(), 1000.0, hand_log()));
}

TEST_CASE("round trips assume no bar order: funding settled after a bar's exits sums the same") {
    // A strategy that settles symbol 1's funding of bar 3 after the exit of
    // symbol 0 and before its own close: the same records, another order.
    const TwoSymbolMarket market;
    std::vector<FillRecord> log = hand_log();
    const double cash_after_both = log[6].cash_after;
    std::swap(log[5], log[6]);  // symbol 1's settlement before symbol 0's signal exit
    log[5].cash_after = log[4].cash_after - log[5].funding;
    log[6].cash_after = log[5].cash_after + log[6].realized_pnl - log[6].fee;
    CHECK(log[6].cash_after == cash_after_both);
    check_hand_worked_trips(derive_round_trips(market.view(), 1000.0, log));
}

TEST_CASE("a log that does not add up is refused, not attributed") {
    const TwoSymbolMarket market;
    SUBCASE("a settlement whose amount disagrees with the cash after it") {
        std::vector<FillRecord> log = hand_log();
        log[2].funding = quantize(0.3);
        CHECK_THROWS_WITH_AS(derive_round_trips(market.view(), 1000.0, log),
                             doctest::Contains("record 3 of the log (trade 0, bar 1, funding) leaves cash "),
                             std::runtime_error);
    }
    SUBCASE("a settlement on a symbol that holds nothing") {
        std::vector<FillRecord> log = hand_log();
        log.push_back(settlement(3, 0, 1, 0, 1, 100, 0.1, 1034.71));
        CHECK_THROWS_WITH_AS(derive_round_trips(market.view(), 1000.0, log),
                             doctest::Contains("record 9 of the log (trade 0, bar 3, funding) settles funding on a trade "
                                               "that is not open"),
                             std::runtime_error);
    }
    SUBCASE("another initial cash") {
        CHECK_THROWS_AS(derive_round_trips(market.view(), 999.0, hand_log()), std::runtime_error);
    }
    SUBCASE("a record of an earlier bar after a later one") {
        std::vector<FillRecord> log = hand_log();
        log.push_back(fill(2, 0, kEntry, 1, 2, 1, 100, 0.1, 0, 1034.71));
        CHECK_THROWS_WITH_AS(derive_round_trips(market.view(), 1000.0, log),
                             doctest::Contains("record 9 of the log (trade 2, bar 2, entry) comes out of the bar order"),
                             std::runtime_error);
    }
    SUBCASE("a record beyond the last bar") {
        std::vector<FillRecord> log = hand_log();
        log.push_back(fill(4, 0, kEntry, 1, 2, 1, 100, 0.1, 0, 1034.71));
        CHECK_THROWS_WITH_AS(derive_round_trips(market.view(), 1000.0, log), doctest::Contains("lies beyond the last bar"),
                             std::runtime_error);
    }
    SUBCASE("a record of a symbol the market lacks") {
        std::vector<FillRecord> log = hand_log();
        log.push_back(fill(3, 2, kEntry, 1, 2, 1, 100, 0.1, 0, 1034.71));
        CHECK_THROWS_WITH_AS(derive_round_trips(market.view(), 1000.0, log),
                             doctest::Contains("names no symbol of the market"), std::runtime_error);
    }
    SUBCASE("a trade left open") {
        std::vector<FillRecord> log = hand_log();
        log.pop_back();
        CHECK_THROWS_WITH_AS(derive_round_trips(market.view(), 1000.0, log), doctest::Contains("trade 1 never closes"),
                             std::runtime_error);
    }
}

TEST_CASE("no fill, no round trip") {
    const TwoSymbolMarket market;
    CHECK(derive_round_trips(market.view(), 1000.0, {}).empty());
}

}  // namespace
}  // namespace btforge
