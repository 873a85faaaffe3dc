#include "host/app/replay_run.h"

#include <numeric>
#include <stdexcept>

#include "host/app/intrabar_bounds.h"
#include "host/app/run_identity.h"
#include "host/app/usage_error.h"
#include "host/data/buy_and_hold.h"
#include "host/engine/account_config.h"
#include "host/spec/assignments.h"

namespace btforge {

Replayed replay_combination(const SweepJob& base, std::span<const double> values) {
    std::vector<std::vector<double>> single;
    for (double v : values) single.push_back({v});
    const SeriesCache series = SeriesCache::build(*base.spec, *base.market, single, 1);
    SweepJob job = base;
    job.series = &series;
    // Note [Fill log without a heap]: count first, then record.
    FillLog counting{nullptr, 0, 0};
    run_combination(job, values, &counting, nullptr);
    Replayed out;
    out.log.resize(static_cast<std::size_t>(counting.count));
    FillLog log{out.log.data(), counting.count, 0};
    out.equity.resize(static_cast<std::size_t>(job.window.n_bars));
    out.metrics = run_combination(job, values, &log, out.equity.data());
    for (const FillRecord& record : out.log) {
        if (record.reason != kFunding) out.fills.push_back(record);
    }
    return out;
}

namespace {

// Note [Replaying a row from its results]: what a differing identity key
// means, in words.
std::string identity_refusal(const std::string& key, const std::string& origin) {
    std::string what;
    if (key == "market_sha256") {
        what = "the market differs from the one the sweep ran: its data file, instruments file or funding file "
               "changed since (or another --symbols, --timestamp-unit, --funding-rate)";
    } else if (key == "spec_sha256") {
        what = "the strategy's spec document changed since the sweep";
    } else if (key == "grid_sha256" || key == "combinations") {
        what = "the grid differs from the one the sweep ran (its grid file or --param changed since)";
    } else if (key == "window") {
        what = "the window holds other bars than the sweep's";
    } else if (key == "account") {
        what = "the account differs from the sweep's";
    } else if (key == "btforge") {
        what = "the results were written by another version of btforge, whose numbers may differ";
    } else {
        what = "its " + key + " differs from this replay's";
    }
    return "cannot replay a row of " + origin + ": " + what + "; nothing was replayed";
}

}  // namespace

void check_replay_parameters(bool by_combination, const StrategyChoice& strategy) {
    if (!by_combination && !strategy.param_options.empty()) {
        throw UsageError("--param gives the grid of --combination; with --set give each value with --set");
    }
}

std::unique_ptr<ReplayRun> run_replay(const ReplayRequest& r) {
    const bool by_id = r.combination.has_value();
    if (by_id == !r.assignments.empty()) {
        throw std::invalid_argument("run_replay: give exactly one of a combination id and parameter values");
    }
    check_replay_parameters(by_id, r.strategy);
    auto run = std::make_unique<ReplayRun>();
    run->strategy = load_strategy(r.strategy);
    const StrategySpec& spec = run->strategy.spec;
    run->values.resize(spec.parameters.size());
    std::optional<Grid> grid;
    if (by_id || !r.strategy.grid_file.empty() || !r.strategy.grid_text.empty()) grid = load_grid(r.strategy, spec);
    std::optional<CombinationSpace> space_of_grid;
    if (grid) space_of_grid.emplace(spec, *grid);
    if (by_id) {
        const CombinationSpace& space = *space_of_grid;
        if (*r.combination >= space.full_size()) {
            throw std::runtime_error("combination " + std::to_string(*r.combination) + " is outside the grid " +
                                     grid->origin + " (" + std::to_string(space.full_size()) + " combinations)");
        }
        space.decode(*r.combination, run->values);
    } else {
        run->values = values_from_assignments(spec, r.assignments);
    }
    run->account = resolve_account(r.account, spec, grid ? &*grid : nullptr);
    run->market = r.loaded_market ? r.loaded_market : std::make_shared<const LoadedMarket>(load_market(r.market));
    const Market& market = run->market->market;
    run->window = choose_window(market, r.window);
    run->assumptions = describe_assumptions(*run->market, run->window, run->account);
    if (r.expected_identity) {
        // Note [Replaying a row from its results]
        if (!space_of_grid) throw std::invalid_argument("run_replay: an expected identity needs the grid");
        const nlohmann::json here = inputs_identity(run->strategy.spec_text, spec, *grid, *space_of_grid, market,
                                                            run->window, run->account);
        const nlohmann::json& expected = *r.expected_identity;
        for (const std::string& key : inputs_identity_keys()) {
            if (!expected.contains(key) || expected[key] != here[key]) {
                throw std::runtime_error(identity_refusal(key, r.expected_identity_origin));
            }
        }
    }
    if (r.bar_legs != 0) check_bar_legs_apply(*run->strategy.binding, spec.name, market, "--intrabar-order");
    SweepJob job{run->strategy.binding, &spec, nullptr, &market, run->window,
                 make_account_config(run->account, market), nullptr};
    job.bar_legs = r.bar_legs;
    run->replayed = replay_combination(job, run->values);
    std::vector<RoundTrip> round_trips = derive_round_trips(job.view(), job.account.initial_equity,
                                                            run->replayed.log);
    // Note [Statistics of a replay]: the benchmark marked at every bar of the window.
    std::vector<int> every_bar(static_cast<std::size_t>(run->window.n_bars));
    std::iota(every_bar.begin(), every_bar.end(), 0);
    run->benchmark = buy_and_hold_marks(market, run->window, every_bar, job.account.initial_equity);
    const auto first = market.timestamp_ms.begin() + run->window.first_bar;
    const std::vector<std::int64_t> times(first, first + run->window.n_bars);
    run->statistics = replay_statistics(run->replayed.equity, times, job.account.initial_equity,
                                        job.account.bars_per_year, round_trips, run->benchmark);
    if (r.round_trips) run->round_trips = std::move(round_trips);
    return run;
}

}  // namespace btforge
