#pragma once

#include <cstring>
#include <vector>

#include <doctest/doctest.h>

#include "host/data/market.h"

namespace btforge::testing {

// Bitwise, so NaN == NaN (the layout's "no bar yet") and -0.0 != 0.0.
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

inline void check_same_market(const Market& a, const Market& b, bool compare_instruments = true) {
    CHECK(a.symbols == b.symbols);
    CHECK(same_bits(a.timestamp_ms, b.timestamp_ms));
    CHECK(same_bits(a.open, b.open));
    CHECK(same_bits(a.high, b.high));
    CHECK(same_bits(a.low, b.low));
    CHECK(same_bits(a.close, b.close));
    CHECK(same_bits(a.volume, b.volume));
    CHECK(same_bits(a.funding_rate, b.funding_rate));
    CHECK(same_bits(a.funding_events, b.funding_events));
    CHECK(same_bits(a.tradable, b.tradable));
    CHECK(a.own_bars == b.own_bars);
    if (compare_instruments) {
        REQUIRE(a.instruments.size() == b.instruments.size());
        for (std::size_t i = 0; i < a.instruments.size(); ++i) {
            CHECK(a.instruments[i].qty_step == b.instruments[i].qty_step);
            CHECK(a.instruments[i].min_qty == b.instruments[i].min_qty);
            CHECK(a.instruments[i].price_tick == b.instruments[i].price_tick);
        }
    }
}

}  // namespace btforge::testing
