#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/data/market.h"
#include "host/data/market_window.h"
#include "host/spec/combination_space.h"
#include "host/spec/grid.h"
#include "host/spec/strategy_spec.h"

namespace btforge {

// Note [Identity of a run's inputs]
// What makes two runs compute the same rows, by content rather than by file
// names: the strategy, the SHA-256 of the spec document, of the grid's axes
// and sampling, of every column of the market (instruments and margin tiers
// included), the window's bars and the account's values, with the btforge
// version. Shards carry it (with the sweep's own options: Note [Shards]),
// and the result JSON records it as "identity", so `btforge replay --from-results
// RESULTS.json` can refuse a market, grid, spec, window or account that
// changed since the sweep, naming the first that differs (Note [Replaying a
// row from its results]). The market is hashed column by column (1.2 GB/s
// with SHA-NI on the 2-core VM: 0.33 s for 400 MB of columns), once per sweep.
nlohmann::json inputs_identity(const std::string& spec_text, const StrategySpec& spec, const Grid& grid,
                               const CombinationSpace& space, const Market& market, const MarketWindow& window,
                               const AccountSpec& account);

// The keys inputs_identity writes, in its order: what a run's identity
// (which adds the sweep's options) shares with its inputs'.
const std::vector<std::string>& inputs_identity_keys();

// The inputs' part of a run's identity (a shard's, which adds the sweep's
// options): what the result JSON records.
nlohmann::json inputs_identity_of(const nlohmann::json& run_identity);

}  // namespace btforge
