#pragma once

#include <cmath>
#include <cstdint>

namespace btforge {

// Note [Market value limits]
// The numbers a market may hold, checked where they enter (every CSV reader
// and the market cache's, through Note [Market rules], and the CLI's
// --funding-rate and --funding-interval-hours), so that no engine meets a
// NaN, an infinity or an overflow later:
// - Prices (open, high, low, close) in [1e-12, 1e12]. The floor is the
//   decimal grid's resolution (Note [Decimal grid values]): a price finer
//   than 1e-12 would be rounded away on its tick. The ceiling keeps what
//   the engines build from prices far from the double limit: squares summed
//   over a period (BBANDS' variance) stay near 1e24 per bar, price x volume
//   near 1e36, and a position's notional finite. Real prices (1e-8 meme
//   coins to 1e6 per share) sit well inside.
// - Volume in [0, 1e24]: a bar trading 1e12 quote units at the smallest
//   price; sums of price x volume over every bar (OBV, MFI) stay finite.
// - A funding rate per funding time with |rate| <= 1, i.e. at most 100% of
//   the position's value per settlement. Exchanges cap it at a few percent
//   per settlement, so the bound is generous, yet it keeps a payment within
//   the size of the position it is charged on.
// - A funding interval of 1 minute to 366 days, a whole number of
//   milliseconds: exchanges settle every 1..8 h; 0 or a negative or
//   fractional interval means nothing, and a huge one overflows the
//   conversion to integer milliseconds.
inline constexpr double kMinPrice = 1e-12;
inline constexpr double kMaxPrice = 1e12;
inline constexpr double kMaxVolume = 1e24;
inline constexpr double kMaxAbsFundingRate = 1.0;
inline constexpr std::int64_t kMinFundingIntervalMs = 60'000;
inline constexpr std::int64_t kMaxFundingIntervalMs = 366LL * 24 * 3600 * 1000;

// Each is false for NaN.
inline bool price_in_range(double price) { return price >= kMinPrice && price <= kMaxPrice; }
inline bool volume_in_range(double volume) { return volume >= 0.0 && volume <= kMaxVolume; }
inline bool funding_rate_in_range(double rate) { return std::fabs(rate) <= kMaxAbsFundingRate; }
inline bool funding_interval_in_range(std::int64_t ms) {
    return ms >= kMinFundingIntervalMs && ms <= kMaxFundingIntervalMs;
}

}  // namespace btforge
