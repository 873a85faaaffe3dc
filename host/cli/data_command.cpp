#include <filesystem>
#include <iostream>

#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/interrupt.h"
#include "host/cli/market_options.h"
#include "host/data/csv_market_writer.h"
#include "host/data/instruments.h"

namespace btforge {

namespace po = boost::program_options;

int run_data_command(const std::vector<std::string>& args) {
    const std::string usage =
        "Usage: btforge data synth --output FILE [options]\n"
        "Writes the seeded synthetic market (the default data of every command) as a long CSV.";
    if (args.empty() || args.front() != "synth") {
        if (!args.empty() && (args.front() == "--help" || args.front() == "-h")) {
            std::cout << usage << '\n';
            return kExitOk;
        }
        throw po::error("expected 'btforge data synth'");
    }
    MarketChoice market_choice;
    std::string output;
    std::string instruments_output;
    std::string timestamps = "iso";
    po::options_description options;
    po::options_description synth("Synthetic market");
    synth.add_options()
        ("output,o", po::value(&output)->required()->value_name("CSV"), "file to write")
        ("instruments-output", po::value(&instruments_output)->value_name("JSON"),
         "where the symbols' qty_step/min_qty/price_tick go (default: OUTPUT with .instruments.json)")
        ("timestamps", po::value(&timestamps)->default_value(timestamps), "iso (ISO-8601 UTC) or ms (epoch ms)");
    po::options_description generator("Generator");
    MarketChoice defaults;
    generator.add_options()
        ("synthetic-seed", po::value(&market_choice.synthetic_seed)->default_value(defaults.synthetic_seed), "seed")
        ("synthetic-symbols", po::value(&market_choice.synthetic_symbols)->default_value(defaults.synthetic_symbols),
         "symbols")
        ("synthetic-bars", po::value(&market_choice.synthetic_bars)->default_value(defaults.synthetic_bars), "bars")
        ("synthetic-bar-minutes",
         po::value(&market_choice.synthetic_bar_minutes)->default_value(defaults.synthetic_bar_minutes), "bar length")
        ("funding-interval-hours",
         po::value(&market_choice.funding_interval_hours)->default_value(defaults.funding_interval_hours),
         "funding interval");
    options.add(synth).add(generator);
    if (!parse_command_line({args.begin() + 1, args.end()}, usage, options)) return kExitOk;
    if (timestamps != "iso" && timestamps != "ms") throw po::error("--timestamps must be iso or ms");
    if (instruments_output.empty()) {
        instruments_output = std::filesystem::path(output).replace_extension(".instruments.json").string();
    }
    install_interrupt_handler();
    // Note [Outputs checked before work]
    OutputTransaction outputs =
        open_outputs({{"--output", output}, {"--instruments-output", instruments_output}}, {}, &interrupt_requested());
    LoadedMarket loaded = load_market(market_choice);
    // The synthetic symbols have their own order sizes; without them a CSV
    // read back would trade with the default instrument and differ.
    write_market_csv(loaded.market, outputs.stream(0),
                     timestamps == "iso" ? TimestampFormat::Iso8601 : TimestampFormat::EpochMs);
    write_instruments(loaded.market.symbols, loaded.market.instruments, outputs.stream(1));
    outputs.commit();  // Note [Outputs committed together]
    std::cout << loaded.description << " -> " << output << " and " << instruments_output << "\nuse it with: --data "
              << output << " --instruments " << instruments_output << '\n';
    return kExitOk;
}

}  // namespace btforge
