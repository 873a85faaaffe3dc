#include <iostream>
#include <optional>
#include <stdexcept>

#include "host/cli/account_options.h"
#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/interrupt.h"
#include "host/cli/market_options.h"
#include "host/cli/run_header.h"
#include "host/cli/strategy_options.h"
#include "host/cli/window_options.h"
#include "host/spec/assignments.h"
#include "host/engine/account_config.h"
#include "host/engine/cpu_sweep.h"
#include "host/report/results_writer.h"
#include "host/report/round_trips.h"
#include "host/report/trade_log_writer.h"

namespace btforge {

namespace po = boost::program_options;

int run_replay_command(const std::vector<std::string>& args) {
    StrategyChoice strategy_choice;
    AccountChoice account_choice;
    MarketChoice market_choice;
    WindowChoice window_choice;
    std::uint64_t combination = 0;
    std::vector<std::string> assignments;
    std::string trades_file = "btforge-replay-trades.csv";
    std::string equity_file = "btforge-replay-equity.csv";
    std::string round_trips_file;
    po::options_description options;
    po::options_description replay("Replay");
    replay.add_options()
        ("combination,c", po::value(&combination), "combination id of the grid, as a sweep reported it")
        ("set", po::value(&assignments)->composing()->value_name("NAME=VALUE"),
         "parameter value instead of --combination (repeatable; the others keep their defaults)")
        ("trades", po::value(&trades_file)->default_value(trades_file), "trade log CSV, one line per fill")
        ("equity", po::value(&equity_file)->default_value(equity_file), "equity curve CSV, one line per bar")
        ("round-trips", po::value(&round_trips_file)->value_name("CSV"),
         "also write one line per round trip: entry, exit, quantity, gross PnL, fees, funding, net PnL, "
         "exit reason, bars held");
    options.add(replay)
        .add(strategy_options(strategy_choice, true))
        .add(account_options(account_choice))
        .add(market_options(market_choice))
        .add(window_options(window_choice));
    po::variables_map given;
    if (!parse_command_line(args,
                            "Usage: btforge replay (--combination ID | --set NAME=VALUE...) [options]\n"
                            "Runs one combination on the CPU reference and writes its trade log and equity curve;\n"
                            "its metrics are exactly those of its sweep row (same market, grid, --param and account\n"
                            "options, and the same --from/--to). With --set the account is that of --grid when one\n"
                            "is given.",
                            options, &given)) {
        return kExitOk;
    }
    bool by_id = given.count("combination") != 0;
    if (by_id == !assignments.empty()) throw po::error("give exactly one of --combination and --set");
    if (!by_id && !strategy_choice.param_options.empty()) {
        throw po::error("--param gives the grid of --combination; with --set give each value with --set");
    }
    install_interrupt_handler();
    // Note [Outputs checked before work]
    std::vector<NamedFile> output_files = {{"--trades", trades_file}, {"--equity", equity_file}};
    if (!round_trips_file.empty()) output_files.push_back({"--round-trips", round_trips_file});
    OutputTransaction outputs = open_outputs(
        output_files,
        {{"--data", market_choice.data_file}, {"--instruments", market_choice.instruments_file},
         {"--spec", strategy_choice.spec_file}, {"--grid", strategy_choice.grid_file}},
        &interrupt_requested());

    LoadedStrategy strategy = load_strategy(strategy_choice);
    std::vector<double> values(strategy.spec.parameters.size());
    std::optional<Grid> grid;
    if (by_id || !strategy_choice.grid_file.empty()) grid = load_grid(strategy_choice, strategy.spec);
    if (by_id) {
        CombinationSpace space(strategy.spec, *grid);
        if (combination >= space.full_size()) {
            throw std::runtime_error("combination " + std::to_string(combination) + " is outside the grid " +
                                     grid->origin + " (" + std::to_string(space.full_size()) + " combinations)");
        }
        space.decode(combination, values);
    } else {
        values = values_from_assignments(strategy.spec, assignments);
    }
    const AccountSpec account = resolve_account(account_choice, strategy.spec, grid ? &*grid : nullptr);
    LoadedMarket loaded = load_market(market_choice);
    const Market& market = loaded.market;
    const MarketWindow window = choose_window(market, window_choice);
    std::vector<std::vector<double>> single;
    for (double v : values) single.push_back({v});
    SeriesCache series = SeriesCache::build(strategy.spec, market, single, 1);
    SweepJob job{strategy.binding, &strategy.spec, nullptr, &market, window, make_account_config(account, market),
                 &series};

    // Note [Fill log without a heap]: count first, then record.
    FillLog counting{nullptr, 0, 0};
    run_combination(job, values, &counting, nullptr);
    std::vector<FillRecord> fills(static_cast<std::size_t>(counting.count));
    FillLog log{fills.data(), counting.count, 0};
    std::vector<double> equity(static_cast<std::size_t>(window.n_bars));
    Metrics metrics = run_combination(job, values, &log, equity.data());
    // Derived before any file is written, so that a refusal leaves none.
    std::vector<RoundTrip> round_trips;
    if (!round_trips_file.empty()) round_trips = derive_round_trips(job.view(), job.account.initial_equity, fills);

    write_trade_log_csv(outputs.stream(0), market, window, fills);
    write_equity_csv(outputs.stream(1), market, window, equity);
    if (!round_trips_file.empty()) write_round_trips_csv(outputs.stream(2), market, window, round_trips);
    outputs.commit();  // Note [Outputs committed together]
    // Note [Run header]
    std::cout << "strategy " << strategy.spec.name << "\n"
              << format_assumptions(describe_assumptions(loaded, window, account)) << "parameters: "
              << describe_combination(strategy.spec, values) << "\n"
              << format_metrics(metrics) << "backend: cpu reference (1 thread)\n"
              << "fills: " << fills.size() << " -> " << trades_file << "\nequity curve -> " << equity_file << '\n';
    if (!round_trips_file.empty()) std::cout << "round trips: " << round_trips.size() << " -> " << round_trips_file << '\n';
    return kExitOk;
}

}  // namespace btforge
