#include "host/engine/account_config.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace btforge {

double bars_per_year(const Market& market) {
    if (market.n_bars() < 2) return 1.0;
    std::vector<std::int64_t> spacing;
    spacing.reserve(market.timestamp_ms.size() - 1);
    for (std::size_t t = 1; t < market.timestamp_ms.size(); ++t) {
        spacing.push_back(market.timestamp_ms[t] - market.timestamp_ms[t - 1]);
    }
    auto middle = spacing.begin() + static_cast<std::ptrdiff_t>(spacing.size() / 2);
    std::nth_element(spacing.begin(), middle, spacing.end());
    constexpr double kMillisPerYear = 365.25 * 24.0 * 3600.0 * 1000.0;
    return kMillisPerYear / static_cast<double>(*middle);
}

AccountConfig make_account_config(const AccountSpec& account, const Market& market) {
    AccountConfig config{};
    config.initial_equity = account.initial_equity;
    config.maker_fee = account.maker_fee;
    config.taker_fee = account.taker_fee;
    config.slippage = account.slippage;
    config.bars_per_year = bars_per_year(market);
    config.margin_mode = account.margin_mode;
    return config;
}

}  // namespace btforge
