#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "host/app/account_choice.h"
#include "host/app/backend_choice.h"
#include "host/app/strategy_choice.h"
#include "host/app/window_choice.h"
#include "host/backends/emu/emu_backend.h"
#include "host/backends/emu/emu_kernels.h"
#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/interrupt.h"
#include "host/cli/option_groups.h"
#include "host/data/csv_market_writer.h"
#include "host/data/instruments.h"
#include "host/data/synthetic_market.h"
#include "host/data/equity_mark_bars.h"
#include "host/io/atomic_file.h"
#include "host/parity/parity_run.h"
#include "host/spec/account_settings.h"
#include "host/io/number_format.h"

namespace btforge {

namespace po = boost::program_options;

namespace {

// The sizes below which a passing run proves less than CI requires
// (Note [Parity in CI]); smaller runs are allowed, for quick checks.
constexpr int kFloorSymbols = 3;
constexpr int kFloorBars = 20000;
constexpr std::uint64_t kFloorCombinations = 10000;


// Writes the market of a failing run (parity::failing_market_files says
// where), so the printed replay command reproduces the diverging combination
// on the CPU reference.
std::pair<std::string, std::string> write_failing_market(const parity::ParityMarket& market, const std::string& report,
                                                         std::uint64_t seed) {
    auto [data, instruments] = parity::failing_market_files(report, seed, std::filesystem::temp_directory_path());
    write_market_csv(market.market, data);
    write_instruments(market.market.symbols, market.market.instruments, instruments);
    if (market.finer.n_bars() > 0) write_market_csv(market.finer, parity::finer_market_file(data));
    if (market.mark.n_bars() > 0) write_market_csv(market.mark, parity::mark_market_file(data));
    return {data, instruments};
}

}  // namespace

int run_parity_command(const std::vector<std::string>& args) {
    BackendChoice backend_choice;
    WindowChoice window_choice;
    std::string strategy;
    std::string spec_file;
    unsigned long long seed = 1;
    int symbols = kFloorSymbols;
    int bars = kFloorBars;
    int finer_bars = 0;
    bool mark = false;
    std::uint64_t combinations = kFloorCombinations;
    int periods = kMaxPeriods;
    std::string equity_marks_text;  // N or daily
    int threads = 0;
    std::string report;
    std::string margin_mode = "cross";
    double min_liquidated = 0.0;
    std::optional<double> initial_equity;
    po::options_description options("Parity");
    options.add_options()
        ("strategy", po::value(&strategy), "strategy to check (default: every strategy generated/ has a kernel for)")
        ("spec", po::value(&spec_file)->value_name("JSON"),
         "check this spec of a built-in strategy instead of the embedded one (its indicator uses and input "
         "columns, its parameter ranges); names the strategy")
        ("seed", whole_number_value(&seed), "seed of the market and of the combinations")
        ("symbols", po::value(&symbols)->default_value(symbols), "symbols of the randomized market (CI floor: 3)")
        ("bars", po::value(&bars)->default_value(bars), "bars of the randomized market (CI floor: 20000)")
        ("mark-prices", po::bool_switch(&mark),
         "give the market a synthetic mark price (Note [Parity market with a mark price]): liquidation reads it")
        ("finer-bars", po::value(&finer_bars)->default_value(finer_bars)->value_name("N"),
         "give every bar a random path of N finer bars (60: minutes of an hour), so that the bars whose exits the "
         "order of high and low decides are settled on them (docs/ACCOUNTING.md §9); 0: none")
        ("combinations", whole_number_value(&combinations),
         "random combinations per strategy (CI floor: 10000)")
        ("periods", po::value(&periods)->default_value(periods),
         ("period statistics compared per combination, 0.." + std::to_string(kMaxPeriods) +
          " (Note [Period statistics])").c_str())
        ("equity-marks", po::value(&equity_marks_text)->value_name("N|daily"),
         "equity marks compared per combination, 0..bars of the window (default: 256, or the window's bars when "
         "fewer; Note [Equity marks]), or one per UTC day of the window (Note [Equity marks at UTC days])")
        ("threads,j", po::value(&threads)->default_value(threads), "worker threads (0: every CPU this process may run on)")
        ("initial-equity", po::value<double>()->value_name("X")->notifier([&initial_equity](double x) {
             initial_equity = x;
         }),
         "the account's initial equity instead of the spec's (the accounting at every account size)")
        ("margin-mode", po::value(&margin_mode)->default_value(margin_mode)->value_name("MODE"),
         "cross or isolated: the account's margin mode (Note [Cross and isolated margin])")
        ("min-liquidated", po::value(&min_liquidated)->default_value(min_liquidated)->value_name("SHARE"),
         "fail unless at least this share (0..1) of the combinations is liquidated at least once, so that a pass "
         "is known to cover the liquidation paths (Note [Liquidation rule])")
        ("report", po::value(&report)->value_name("FILE.json"), "write the full comparison as JSON");
    options.add(backend_options(backend_choice, "emu|cuda", "emu")).add(window_options(window_choice));
    if (!parse_command_line(args,
                            "Usage: btforge parity --backend emu|cuda [options]\n"
                            "Runs the CPU reference and a backend on the same randomized market and combinations\n"
                            "and compares every metric field (SPEC §3). Exits 1 on any divergence beyond tolerance.",
                            options)) {
        return kExitOk;
    }
    if (backend_choice.name != "emu" && backend_choice.name != "cuda") {
        throw po::error("unknown backend '" + backend_choice.name + "' for --backend (emu or cuda)");
    }
    if (symbols < 1 || symbols > kMaxSymbols) throw po::error("--symbols must be in 1.." + std::to_string(kMaxSymbols));
    if (bars < 2) throw po::error("--bars must be >= 2");
    if (finer_bars != 0 && !finer_bars_fit(finer_bars, SyntheticMarketOptions{}.bar_ms)) {
        throw po::error("--finer-bars must be 0, or 2 or more dividing the hour's 3600000 ms (60: 1-minute bars)");
    }
    if (combinations < 1) throw po::error("--combinations must be >= 1");
    if (periods < 0 || periods > kMaxPeriods) {
        throw po::error("--periods must be in 0.." + std::to_string(kMaxPeriods) + ", got " + std::to_string(periods));
    }
    const MarginMode mode = margin_mode_option(margin_mode);
    if (initial_equity && !account_settings()[0].accepts(*initial_equity)) {
        throw po::error("--initial-equity: expected " + std::string(account_settings()[0].rule) + ", got " +
                        format_double(*initial_equity));
    }
    if (!(min_liquidated >= 0.0 && min_liquidated <= 1.0)) {
        throw po::error("--min-liquidated must be a share in 0..1, got " + format_double(min_liquidated));
    }
    threads = resolve_threads(threads);
    install_interrupt_handler();
    // Note [Outputs checked before work]
    OutputTransaction outputs = open_outputs(
        report.empty() ? std::vector<NamedFile>{} : std::vector<NamedFile>{{"--report", report}}, {},
        &interrupt_requested());

    std::vector<std::string> strategies;
    if (!spec_file.empty()) {
        StrategyChoice choice;
        choice.spec_file = spec_file;
        const std::string name = load_strategy(choice).spec.name;
        if (!strategy.empty() && strategy != name) {
            throw po::error("--strategy " + strategy + " and --spec " + spec_file + " (strategy '" + name +
                            "') name different strategies");
        }
        strategy = name;
    }
    if (!strategy.empty()) {
        if (!emu_supports(strategy)) {
            throw std::runtime_error("generated/ has no sweep kernel for strategy '" + strategy + "'");
        }
        strategies.push_back(strategy);
    } else {
        for (const emu::EmuKernelEntry& e : emu::emu_kernels()) strategies.emplace_back(e.strategy);
    }
    if (symbols < kFloorSymbols || bars < kFloorBars || combinations < kFloorCombinations) {
        std::cerr << "btforge parity: note: below the CI floor (" << kFloorSymbols << " symbols, " << kFloorBars
                  << " bars, " << kFloorCombinations << " combinations); a pass proves less\n";
    }

    ResolvedBackend resolved = resolve_backend(backend_choice, strategies.front(), threads, say_backend_notice);
    parity::Backend backend{resolved.name, resolved.description, resolved.run, resolved.series};
    if (mark && finer_bars != 0) throw po::error("--mark-prices and --finer-bars: give one or the other");
    parity::ParityMarket market = parity::make_parity_market({seed, symbols, bars, finer_bars, mark});
    const MarketWindow window = choose_window(market.market, window_choice);
    std::cout << "parity: " << backend.description << " vs cpu reference (" << thread_count_text(threads) << ")\nmarket: "
              << market.description << '\n';
    if (!(window == whole_market(market.market))) std::cout << "window: " << describe_window(market.market, window) << '\n';
    if (window.n_bars < periods) {
        throw po::error("--periods " + std::to_string(periods) + " needs at least that many bars in the window, which has " +
                        std::to_string(window.n_bars));
    }
    if (periods > 0) std::cout << "period statistics: " << periods << " per combination, compared field by field\n";
    int equity_marks = -1;
    bool daily_marks = false;
    if (!equity_marks_text.empty()) {
        const std::optional<int> marks =
            number_or_word("equity-marks", equity_marks_text, "daily", "a whole number N or daily");
        daily_marks = !marks.has_value();
        equity_marks = marks ? *marks : utc_days_in_window(market.market, window);
        if (equity_marks < 0) {
            throw po::error("--equity-marks: expected a whole number N or daily, got '" + equity_marks_text + "'");
        }
    }
    if (equity_marks < 0) equity_marks = std::min(256, window.n_bars);
    if (equity_marks > window.n_bars) {
        throw po::error("--equity-marks " + std::to_string(equity_marks) +
                        " needs at least that many bars in the window, which has " + std::to_string(window.n_bars));
    }
    if (equity_marks > 0) {
        std::cout << "equity marks: " << equity_marks << (daily_marks ? " (the window's UTC days)" : "")
                  << " per combination, compared value by value\n";
    }

    bool passed = true;
    nlohmann::json results = nlohmann::json::array();
    for (const std::string& name : strategies) {
        StrategyChoice choice;
        choice.strategy = name;
        choice.spec_file = spec_file;
        LoadedStrategy loaded = load_strategy(choice);
        parity::ParityRunOptions run{seed,           combinations, threads,      window,     periods,
                                     mode,           initial_equity, equity_marks, daily_marks};
        parity::ParityResult result = parity::run_parity(loaded.spec, *loaded.binding, market, backend, run);
        const double liquidated_share = result.liquidated_share();
        std::cout << "\nstrategy " << name << ": " << result.combinations << " random combinations of "
                  << result.full_space << " (seed " << seed << "), " << result.distinct_series
                  << " indicator series; reference " << result.reference_seconds << " s, " << backend.name << " "
                  << result.backend_seconds << " s\n"
                  << parity::format_parity_table(result);
        nlohmann::json json = parity::parity_result_json(result);
        if (result.passed() && liquidated_share < min_liquidated) {
            passed = false;
            std::cout << "verdict: FAIL (liquidations in " << format_significant(100.0 * liquidated_share, 3)
                      << "% of the combinations, --min-liquidated asks for " << format_significant(100.0 * min_liquidated, 3)
                      << "%: the liquidation paths are not covered)\n";
            json["verdict"] = "fail";
        } else if (result.passed()) {
            std::cout << "verdict: PASS"
                      << (result.comparison.identical_values() == result.comparison.total_values()
                              ? " (100% bit-identical)\n"
                              : " (within 1e-12, not all bit-identical)\n");
        } else {
            passed = false;
            std::cout << "verdict: FAIL (" << result.comparison.failed_values << " values in "
                      << result.comparison.failed_rows << " combinations)\n";
            if (!result.comparison.failures.empty()) {
                const parity::Divergence& d = result.comparison.failures.front();
                auto [data, instruments] = write_failing_market(market, report, seed);
                std::string replay = parity::replay_command(result, data, instruments);
                if (market.finer.n_bars() > 0) replay += " --intrabar " + parity::finer_market_file(data);
                if (market.mark.n_bars() > 0) replay += " --mark " + parity::mark_market_file(data);
                if (!spec_file.empty()) replay += " --spec " + spec_file;
                replay += window_arguments(window_choice);
                std::cout << "first divergence: combination " << d.combination_id << " (ordinal " << d.ordinal
                          << "), field " << d.field << ": " << backend.name << " " << format_double(d.backend)
                          << ", reference " << format_double(d.reference) << "\nreplay it on the reference: " << replay
                          << '\n';
                json["replay"] = replay;
            }
        }
        results.push_back(json);
    }

    if (!report.empty()) {
        nlohmann::json document = {{"backend", backend.name},
                                   {"backend_description", backend.description},
                                   {"seed", seed},
                                   {"symbols", symbols},
                                   {"bars", bars},
                                   {"finer_bars", finer_bars},
                                   {"mark_prices", mark},
                                   {"market", market.description},
                                   {"market_bars_aligned", market.market.n_bars()},
                                   {"window", {{"first_bar", window.first_bar}, {"bars", window.n_bars}}},
                                   {"injected",
                                    {{"jumps", market.injected.jumps},
                                     {"spikes", market.injected.spikes},
                                     {"flat_stretches", market.injected.flat_stretches},
                                     {"removed_bars", market.injected.removed_bars}}},
                                   {"combinations", combinations},
                                   {"strategies", results},
                                   {"verdict", passed ? "pass" : "fail"}};
        outputs.stream(0) << document.dump(2) << '\n';
        outputs.commit();
        std::cout << "\nreport: " << report << '\n';
    }
    return passed ? kExitOk : kExitFailure;
}

}  // namespace btforge
