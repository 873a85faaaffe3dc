#include <cmath>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "host/app/account_choice.h"
#include "host/app/intrabar_bounds.h"
#include "host/app/market_choice.h"
#include "host/app/replay_run.h"
#include "host/app/run_header.h"
#include "host/app/run_inputs.h"
#include "host/app/strategy_choice.h"
#include "host/app/window_choice.h"
#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/interrupt.h"
#include "host/cli/option_groups.h"
#include "host/data/timestamp_parse.h"
#include "host/engine/account_config.h"
#include "host/engine/cpu_sweep.h"
#include "host/report/results_head.h"
#include "host/report/results_writer.h"
#include "host/report/round_trips.h"
#include "host/report/trade_log_writer.h"
#include "host/report/walk_forward_file.h"
#include "host/spec/assignments.h"

namespace btforge {

namespace po = boost::program_options;

namespace {

// Note [Stitched walk-forward path]: every step's winner replayed, its
// period kept. Refuses a file written for another market, window or grid.
StitchedPath replay_walk_forward(const WalkForwardFile& file, const std::string& origin, const SweepJob& base,
                                 const CombinationSpace& space) {
    const Market& market = *base.market;
    const MarketWindow& window = base.window;
    if (window.n_bars < file.periods) {
        throw std::runtime_error(origin + " cuts its window into " + std::to_string(file.periods) +
                                 " periods; this window has " + std::to_string(window.n_bars) + " bars");
    }
    for (int p = 0; p < file.periods; ++p) {
        const auto first = static_cast<std::size_t>(window.first_bar + period_first_bar(p, window.n_bars, file.periods));
        const std::string here = format_timestamp_iso(market.timestamp_ms.at(first));
        if (here != file.period_spans[static_cast<std::size_t>(p)].first) {
            throw std::runtime_error(origin + " was written for another market or window: its period " +
                                     std::to_string(p) + " begins at " + file.period_spans[static_cast<std::size_t>(p)].first +
                                     ", here at " + here + " (give the sweep's --data, --from and --to)");
        }
    }
    StitchedPath path;
    std::vector<double> values(base.spec->parameters.size());
    for (std::size_t i = 0; i < file.legs.size(); ++i) {
        const WalkForwardLeg& leg = file.legs[i];
        if (leg.combination_id >= space.full_size()) {
            throw std::runtime_error(origin + ": step " + std::to_string(leg.step) + " trades combination " +
                                     std::to_string(leg.combination_id) + ", outside this grid (" +
                                     std::to_string(space.full_size()) + " combinations; give the sweep's --grid)");
        }
        space.decode(leg.combination_id, values);
        if (combination_assignments(*base.spec, values) != file.parameters[i]) {
            throw std::runtime_error(origin + ": step " + std::to_string(leg.step) + " trades combination " +
                                     std::to_string(leg.combination_id) + " as " + describe_combination(*base.spec, values) +
                                     " here but not in the file (give the sweep's --grid and --param)");
        }
        const Replayed run = replay_combination(base, values);
        append_walk_forward_leg(path, leg, file.periods, base.account.initial_equity, run.equity, run.fills);
    }
    return path;
}

}  // namespace

int run_replay_command(const std::vector<std::string>& args) {
    StrategyChoice strategy_choice;
    AccountChoice account_choice;
    MarketChoice market_choice;
    WindowChoice window_choice;
    WholeNumber combination;  // Note [Unsigned options]
    std::vector<std::string> assignments;
    std::string trades_file = "btforge-replay-trades.csv";
    std::string equity_file = "btforge-replay-equity.csv";
    std::string round_trips_file;
    std::string walk_forward_file;
    std::string intrabar_order = "rule";
    std::string results_file;
    po::options_description options;
    po::options_description replay("Replay");
    replay.add_options()
        ("combination,c", po::value(&combination), "combination id of the grid, as a sweep reported it")
        ("from-results", po::value(&results_file)->value_name("RESULTS_JSON"),
         "take the strategy, grid, market, window and account from a sweep's result JSON (its \"inputs\") and "
         "refuse them if they changed since the sweep; without --combination, its best row (Note [Replaying a row "
         "from its results])")
        ("set", po::value(&assignments)->composing()->value_name("NAME=VALUE"),
         "parameter value instead of --combination (repeatable; the others keep their defaults)")
        ("trades", po::value(&trades_file)->default_value(trades_file), "trade log CSV, one line per fill")
        ("equity", po::value(&equity_file)->default_value(equity_file), "equity curve CSV, one line per bar")
        ("round-trips", po::value(&round_trips_file)->value_name("CSV"),
         "also write one line per round trip: entry, exit, quantity, gross PnL, fees, funding, net PnL, "
         "exit reason, bars held")
        ("intrabar-order", po::value(&intrabar_order)->default_value(intrabar_order)->value_name("ORDER"),
         "rule (docs/ACCOUNTING.md §9), or favourable-first / adverse-first: every bar the strategy would walk "
         "taken as open, its favourable (adverse) extreme, the other, close, the orders of sweep "
         "--intrabar-bounds (Note [A bar as three legs])")
        ("walk-forward", po::value(&walk_forward_file)->value_name("VALIDATION_JSON"),
         "replay the stitched out-of-sample path of a sweep's walk-forward (its OUTPUT.validation.json): each "
         "step's winner traded during its period; give the sweep's strategy, grid, market, account and window "
         "options");
    options.add(replay)
        .add(strategy_options(strategy_choice, true))
        .add(account_options(account_choice))
        .add(market_options(market_choice))
        .add(window_options(window_choice));
    po::variables_map given;
    if (!parse_command_line(args,
                            "Usage: btforge replay (--combination ID | --set NAME=VALUE... | --walk-forward FILE) [options]\n"
                            "Runs one combination on the CPU reference and writes its trade log and equity curve;\n"
                            "its metrics are exactly those of its sweep row (same market, grid, --param and account\n"
                            "options, and the same --from/--to). With --set the account is that of --grid when one\n"
                            "is given.",
                            options, &given)) {
        return kExitOk;
    }
    bool by_id = given.count("combination") != 0;
    const bool walk_forward = !walk_forward_file.empty();
    const bool from_results = !results_file.empty();
    if (from_results) {
        // Note [Replaying a row from its results]: the inputs are the file's, all of them.
        std::string also;
        for (const auto& [name, value] : given) {
            if (value.defaulted()) continue;
            for (const auto& input : {strategy_options(strategy_choice, true), account_options(account_choice),
                                      market_options(market_choice), window_options(window_choice)}) {
                if (input.find_nothrow(name, false) != nullptr) also += (also.empty() ? "--" : ", --") + name;
            }
        }
        if (!also.empty()) {
            throw po::error("--from-results takes the strategy, grid, market, window and account from " + results_file +
                            "; leave out " + also);
        }
        if (!assignments.empty() || walk_forward) {
            throw po::error("--from-results replays a row of the sweep: give --combination, or nothing for its best row");
        }
        by_id = true;
    }
    if (!from_results &&
        static_cast<int>(by_id) + static_cast<int>(!assignments.empty()) + static_cast<int>(walk_forward) != 1) {
        throw po::error("give exactly one of --combination, --set and --walk-forward");
    }
    const int bar_legs = bar_legs_of_order(intrabar_order);
    if (walk_forward && bar_legs != 0) {
        throw po::error("--intrabar-order replays one combination; --walk-forward stitches several");
    }
    if (walk_forward && !round_trips_file.empty()) {
        throw po::error("--round-trips needs one combination; --walk-forward stitches several (see --trades)");
    }
    if (!walk_forward) check_replay_parameters(by_id, strategy_choice);
    install_interrupt_handler();
    // Note [Outputs checked before work]
    std::vector<NamedFile> output_files = {{"--trades", trades_file}, {"--equity", equity_file}};
    if (!round_trips_file.empty()) output_files.push_back({"--round-trips", round_trips_file});
    OutputTransaction outputs = open_outputs(
        output_files,
        {{"--data", market_choice.data_file}, {"--funding-file", market_choice.funding_file},
         {"--intrabar", market_choice.intrabar_file}, {"--mark", market_choice.mark_file}, {"--instruments", market_choice.instruments_file},
         {"--spec", strategy_choice.spec_file}, {"--grid", strategy_choice.grid_file}, {"--from-results", results_file}},
        &interrupt_requested());

    if (walk_forward) {
        LoadedStrategy strategy = load_strategy(strategy_choice);
        const WalkForwardFile file = read_walk_forward_file(walk_forward_file);
        const Grid grid = load_grid(strategy_choice, strategy.spec);
        const CombinationSpace space(strategy.spec, grid);
        const AccountSpec account = resolve_account(account_choice, strategy.spec, &grid);
        LoadedMarket loaded = load_market(market_choice);
        const MarketWindow window = choose_window(loaded.market, window_choice);
        const SweepJob base{strategy.binding, &strategy.spec, nullptr, &loaded.market, window,
                            make_account_config(account, loaded.market), nullptr};
        const StitchedPath path = replay_walk_forward(file, walk_forward_file, base, space);
        write_stitched_trade_log_csv(outputs.stream(0), loaded.market, window, path);
        write_stitched_equity_csv(outputs.stream(1), loaded.market, window, path);
        outputs.commit();  // Note [Outputs committed together]
        const double initial = base.account.initial_equity;
        const double stitched = path.equity.empty() ? 0.0 : path.equity.back() / initial - 1.0;
        std::cout << "strategy " << strategy.spec.name << "\n"
                  << format_assumptions(describe_assumptions(loaded, window, account))
                  << "walk-forward of " << walk_forward_file << ": " << file.legs.size() << " steps\n";
        for (std::size_t i = 0; i < file.legs.size(); ++i) {
            const WalkForwardLeg& leg = file.legs[i];
            const auto& span = file.period_spans[static_cast<std::size_t>(leg.out_of_sample_period)];
            std::cout << "  step " << leg.step << ": combination " << leg.combination_id << " in period "
                      << leg.out_of_sample_period << " (" << span.first << " .. " << span.second << ")\n";
        }
        std::cout << "stitched out-of-sample path: " << path.bars.size() << " bars, " << path.fills.size()
                  << " fills, return " << stitched << " (the sweep's walk-forward: " << file.stitched_return << ")\n"
                  << "backend: cpu reference (1 thread)\n"
                  << "fills -> " << trades_file << "\nequity curve -> " << equity_file << '\n';
        return kExitOk;
    }
    ReplayRequest request;
    request.strategy = strategy_choice;
    request.account = account_choice;
    request.market = market_choice;
    request.window = window_choice;
    if (by_id) request.combination = combination.value;
    if (from_results) {
        // Note [Replaying a row from its results]
        const ResultsHead results = read_results_head(results_file, results_file);
        if (!results.head.contains("inputs") || !results.head.contains("identity")) {
            throw std::runtime_error(results_file + " does not record its sweep's inputs and identity (written by an "
                                     "older btforge?): replay with the sweep's options instead");
        }
        const RunInputs inputs = run_inputs_from_json(results.head["inputs"], results_file);
        if (!inputs.market.data_file.empty() && inputs.market.data_file.front() == '<') {
            throw std::runtime_error(results_file + ": the sweep's market lived in memory (" + inputs.market.data_file +
                                     "), not in a file: replay its rows from Python (SweepResult.replay)");
        }
        request.strategy = inputs.strategy;
        request.account = inputs.account;
        request.market = inputs.market;
        request.window = inputs.window;
        if (given.count("combination") == 0) {
            if (!results.best_combination_id) throw std::runtime_error(results_file + " has no rows to replay");
            request.combination = *results.best_combination_id;
        }
        request.expected_identity = results.head["identity"];
        request.expected_identity_origin = results_file;
    }
    request.assignments = assignments;
    request.round_trips = !round_trips_file.empty();
    request.bar_legs = bar_legs;
    // Derived before any file is written, so that a refusal leaves none.
    const std::unique_ptr<ReplayRun> run = run_replay(request);
    const Market& market = run->market->market;
    const MarketWindow& window = run->window;
    const std::vector<FillRecord>& fills = run->replayed.fills;
    const std::vector<double>& equity = run->replayed.equity;
    const Metrics& metrics = run->replayed.metrics;
    const std::vector<RoundTrip>& round_trips = run->round_trips;
    const std::vector<double>& values = run->values;

    write_trade_log_csv(outputs.stream(0), market, window, fills);
    write_equity_csv(outputs.stream(1), market, window, equity);
    if (!round_trips_file.empty()) write_round_trips_csv(outputs.stream(2), market, window, round_trips);
    outputs.commit();  // Note [Outputs committed together]
    // Note [Run header]
    std::cout << "strategy " << run->strategy.spec.name << "\n"
              << format_assumptions(run->assumptions) << "parameters: "
              << describe_combination(run->strategy.spec, values) << "\n"
              << format_metrics(metrics) << format_replay_statistics(run->statistics)
              << "backend: cpu reference (1 thread)\n"
              << "fills: " << fills.size() << " -> " << trades_file << "\nequity curve -> " << equity_file << '\n';
    if (!round_trips_file.empty()) std::cout << "round trips: " << round_trips.size() << " -> " << round_trips_file << '\n';
    if (bar_legs != 0) {
        // Note [A bar as three legs]
        std::cout << "order inside a bar: " << (bar_legs > 0 ? "the favourable" : "the adverse")
                  << " extreme first, on every bar the strategy walks (--intrabar-order " << intrabar_order << ")\n";
    }
    if (run->market->synthetic) std::cout << kSyntheticMarketNote << "\n";  // Note [Synthetic market said plainly]
    return kExitOk;
}

}  // namespace btforge
