#include "host/app/run_identity.h"

#include <algorithm>

#include "host/io/sha256.h"
#include "host/report/results_writer.h"
#include "host/report/shard_file.h"
#include "host/version/build_version.h"

namespace btforge {

nlohmann::json inputs_identity(const std::string& spec_text, const StrategySpec& spec, const Grid& grid,
                               const CombinationSpace& space, const Market& m, const MarketWindow& window,
                               const AccountSpec& account) {
    nlohmann::json id;
    id["btforge"] = build_version();
    id["strategy"] = spec.name;
    id["spec_sha256"] = sha256_hex(spec_text);
    id["grid_sha256"] = run_grid_sha256(grid);
    id["combinations"] = space.count();
    Sha256 market;
    const auto column = [&market](const auto& values) {
        market.update(values.data(), values.size() * sizeof(values[0]));
    };
    for (const std::string& symbol : m.symbols) market.update(symbol.c_str(), symbol.size() + 1);
    column(m.timestamp_ms), column(m.open), column(m.high), column(m.low), column(m.close), column(m.volume);
    column(m.funding_rate), column(m.funding_events), column(m.tradable), column(m.qty_step), column(m.min_qty);
    column(m.price_tick);
    for (const MarginSchedule& tiers : m.margin) {  // field by field: the struct has padding bytes
        const auto n = static_cast<std::size_t>(std::clamp(tiers.n_tiers, 0, kMaxMarginTiers));
        market.update(&tiers.n_tiers, sizeof tiers.n_tiers);
        market.update(&tiers.liquidation_fee, sizeof tiers.liquidation_fee);
        market.update(tiers.notional_floor, n * sizeof(double));
        market.update(tiers.rate, n * sizeof(double));
        market.update(tiers.amount, n * sizeof(double));
    }
    if (m.finer.per_bar > 0) {  // Note [Finer bars]; a market without them keeps its identity
        market.update(&m.finer.per_bar, sizeof m.finer.per_bar);
        column(m.finer.path), column(m.finer.open), column(m.finer.high), column(m.finer.low);
    }
    if (!m.mark.open.empty()) {  // Note [Mark price]; a market without one keeps its identity
        market.update("mark", 4);
        column(m.mark.open), column(m.mark.high), column(m.mark.low);
    }
    id["market_sha256"] = market.hex();
    id["window"] = {{"first_bar", window.first_bar}, {"bars", window.n_bars}};
    id["account"] = account_json(account);
    return id;
}

const std::vector<std::string>& inputs_identity_keys() {
    static const std::vector<std::string> keys = {"btforge", "strategy",      "spec_sha256", "grid_sha256",
                                                  "combinations", "market_sha256", "window",  "account"};
    return keys;
}

nlohmann::json inputs_identity_of(const nlohmann::json& run_identity) {
    nlohmann::json id;
    for (const std::string& key : inputs_identity_keys()) {
        if (run_identity.contains(key)) id[key] = run_identity[key];
    }
    return id;
}

}  // namespace btforge
