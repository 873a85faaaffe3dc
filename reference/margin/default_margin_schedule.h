#pragma once

#include "reference/margin/margin_schedule.h"

namespace btforge {

// Note [Default margin schedule]
// The maintenance schedule of an instrument whose instruments file gives
// none: Binance's USD-M BTCUSDT brackets as its leverage-bracket data showed
// them in 2021, the example its liquidation-price FAQ works with (a 500,000
// USDT position: maintenance amount 1,300; 264,000: rate 1%): floors 0, 50k,
// 250k, 1M, 10M, 20M, 50M, 100M, 200M, 300M USDT of notional at rates 0.4%,
// 0.5%, 1%, 2.5%, 5%, 10%, 12.5%, 15%, 25%, 50%, with the maintenance
// amounts those imply (Note [Maintenance margin tiers]). It is a sensible
// default for a large, liquid perpetual, not any exchange's current table
// for any symbol: smaller coins carry higher rates, so give yours per symbol
// ("maintenance_margin" in the instruments file). The liquidation fee, 1%
// of the notional, is btforge's round default, not an exchange's figure;
// capped as Note [Liquidation fill] says, it takes the whole maintenance
// margin in the first three tiers (rates up to 1%), so a liquidated position
// loses its margin down to its bankruptcy price there.
// Not BT_KERNEL: data for the host and the tests, never run on the device.
inline constexpr MarginSchedule default_margin_schedule() {
    MarginSchedule schedule{};
    constexpr double floors[] = {0.0, 50e3, 250e3, 1e6, 10e6, 20e6, 50e6, 100e6, 200e6, 300e6};
    constexpr double rates[] = {0.004, 0.005, 0.01, 0.025, 0.05, 0.10, 0.125, 0.15, 0.25, 0.5};
    constexpr double amounts[] = {0.0, 50.0, 1300.0, 16300.0, 266300.0, 1266300.0, 2516300.0, 5016300.0, 25016300.0,
                                  100016300.0};
    schedule.n_tiers = 10;
    schedule.liquidation_fee = 0.01;
    for (int k = 0; k < schedule.n_tiers; ++k) {
        schedule.notional_floor[k] = floors[k];
        schedule.rate[k] = rates[k];
        schedule.amount[k] = amounts[k];
    }
    return schedule;
}

}  // namespace btforge
