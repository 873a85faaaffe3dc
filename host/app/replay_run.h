#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/app/account_choice.h"
#include "host/app/market_choice.h"
#include "host/app/run_header.h"
#include "host/app/strategy_choice.h"
#include "host/app/window_choice.h"
#include "host/engine/cpu_sweep.h"
#include "host/report/replay_statistics.h"
#include "host/report/round_trips.h"

namespace btforge {

// One combination of a strategy on the CPU reference, as `btforge replay`
// and Python's btforge.replay run it (Note [One sweep, two front ends]): by
// its combination id in the grid (whose account block applies), or by
// NAME=VALUE assignments (the rest keep their defaults).
struct ReplayRequest {
    StrategyChoice strategy;
    AccountChoice account;
    MarketChoice market;
    std::shared_ptr<const LoadedMarket> loaded_market;  // Python's btforge.Market; `market` is then not read
    WindowChoice window;
    std::optional<std::uint64_t> combination;
    std::vector<std::string> assignments;  // --set NAME=VALUE, when no combination
    bool round_trips = false;
    // Note [A bar as three legs]: 0 our rule; +1 or -1 each bar walked as its
    // legs, the favourable or the adverse extreme first (--intrabar-order).
    int bar_legs = 0;
    // Note [Replaying a row from its results]: the identity of the inputs the
    // row was computed from (a result JSON's "identity"), named `origin` in
    // the refusal when this replay's differs.
    std::optional<nlohmann::json> expected_identity;
    std::string expected_identity_origin;
};

// Note [Replaying a row from its results]
// A replay reproduces its sweep row only on the sweep's inputs, and a
// command copied without --data replayed on the synthetic market (a Sharpe
// of -2.98 for a row of 0.513, exit 0), one without --instruments on
// default sizes. `btforge replay --from-results RESULTS.json [--combination
// ID]` takes every input from the result JSON's "inputs" (Note [Inputs of a
// run]), the best row when no id is given, and refuses to replay when the
// identity of what it loaded (Note [Identity of a run's inputs]) differs
// from the JSON's "identity": a market, instruments, funding, grid, spec,
// window or account changed since the sweep is named, not replayed. The
// sweep prints this command for its best row.

// A replayed combination: metrics, its log, the fills and the close-marked
// equity of every bar of the window.
struct Replayed {
    Metrics metrics{};
    std::vector<FillRecord> log;    // fills and funding settlements in order (Note [Funding in the fill log])
    std::vector<FillRecord> fills;  // the log's fills: the trade log
    std::vector<double> equity;     // one per bar of the window
};

// One combination on the CPU reference, with its own series, over `base`'s
// market, window and account.
Replayed replay_combination(const SweepJob& base, std::span<const double> values);

struct ReplayRun {
    LoadedStrategy strategy;
    std::shared_ptr<const LoadedMarket> market;
    MarketWindow window;
    AccountSpec account;
    RunAssumptions assumptions;
    std::vector<double> values;  // the parameters, in spec order
    Replayed replayed;
    std::vector<RoundTrip> round_trips;  // when asked
    std::vector<double> benchmark;       // buy and hold at every bar of the window (Note [Buy-and-hold benchmark])
    ReplayStatistics statistics;         // Note [Statistics of a replay]
};

// The usage rule of --param in a replay: it gives the axes of the grid that
// --combination indexes, so it cannot go with --set (a UsageError).
// The command line checks it before any
// work; run_replay again for other callers.
void check_replay_parameters(bool by_combination, const StrategyChoice& strategy);

// Throws std::invalid_argument unless exactly one of combination and
// assignments is given (each front end words that rule for its own
// arguments first), std::runtime_error for an id outside the grid, and what
// the loaders throw.
std::unique_ptr<ReplayRun> run_replay(const ReplayRequest& request);

}  // namespace btforge
