#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/interrupt.h"
#include "host/cli/market_options.h"
#include "host/data/csv_fields.h"
#include "host/data/csv_market_writer.h"
#include "host/data/instruments.h"
#include "host/data/market_import.h"

namespace btforge {

namespace po = boost::program_options;

namespace {

constexpr const char* kImportUsage =
    "Usage: btforge data import --format binance-klines|binance-funding|csv FILE... --output CSV [options]\n"
    "Turns exchange dumps and other CSVs into btforge's long CSV (klines, csv) or funding file (binance-funding):\n"
    "many files at once (one per symbol and month), merged per symbol in time order, optionally resampled\n"
    "(--bar), with a gap report. Note [Market import] in host/data/market_import.h.";

// "timestamp=open_time,open=o,..." -> pairs.
std::vector<std::pair<std::string, std::string>> parse_columns(const std::string& text) {
    std::vector<std::pair<std::string, std::string>> out;
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');) {
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
            throw po::error("--columns expects NAME=COLUMN pairs separated by commas (timestamp=open_time,...), got '" +
                            item + "'");
        }
        out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
    return out;
}

int run_import(const std::vector<std::string>& args) {
    std::string format_name;
    std::string output;
    std::string symbol;
    std::string columns;
    std::string timestamp_unit = "auto";
    std::string bar;
    std::string timestamps = "iso";
    po::options_description options("Import");
    options.add_options()
        ("format", po::value(&format_name)->required()->value_name("FORMAT"),
         "binance-klines (USD-M futures kline dumps, with or without header, ms or us times), binance-funding "
         "(funding-rate history dumps), csv (any CSV with a header; see --columns)")
        ("output,o", po::value(&output)->required()->value_name("CSV"), "file to write")
        ("symbol", po::value(&symbol)->value_name("SYMBOL"),
         "the symbol of every file (default: the file name up to its first '-', or csv's symbol column)")
        ("columns", po::value(&columns)->value_name("NAME=COLUMN,..."),
         "csv: the file's column of timestamp, open, high, low, close, volume and optionally symbol (unmapped ones "
         "keep their names)")
        ("timestamp-unit", po::value(&timestamp_unit)->default_value(timestamp_unit)->value_name("UNIT"),
         "unit of integer timestamps: s, ms, us, ns, or auto (per file, from their magnitudes)")
        ("bar", po::value(&bar)->value_name("LENGTH"), "resample to bars of this length (30s, 5m, 1h, 4h, 1d), aligned to the epoch")
        ("timestamps", po::value(&timestamps)->default_value(timestamps), "output timestamps: iso (ISO-8601 UTC) or ms");
    std::vector<std::string> files;
    if (!parse_command_line(args, kImportUsage, options, nullptr, &files)) return kExitOk;
    const std::optional<ImportFormat> format = parse_import_format(format_name);
    if (!format) throw po::error("--format must be binance-klines, binance-funding or csv, got '" + format_name + "'");
    if (files.empty()) throw po::error("give the files to import after the options (e.g. data/BTCUSDT-1m-*.csv)");
    if (timestamps != "iso" && timestamps != "ms") throw po::error("--timestamps must be iso or ms");
    ImportOptions import;
    import.format = *format;
    import.symbol = symbol;
    if (timestamp_unit != "auto") {
        import.timestamp_unit = parse_epoch_unit(timestamp_unit);
        if (!import.timestamp_unit) throw po::error("--timestamp-unit must be auto, s, ms, us or ns, got '" + timestamp_unit + "'");
    }
    if (!columns.empty()) {
        if (*format != ImportFormat::MappedCsv) throw po::error("--columns applies to --format csv");
        import.columns = parse_columns(columns);
    }
    if (!bar.empty()) {
        if (*format == ImportFormat::BinanceFunding) throw po::error("--bar resamples bars; funding rates are not bars");
        const std::optional<std::int64_t> length = parse_bar_length(bar);
        if (!length) throw po::error("--bar expects a length like 30s, 5m, 1h, 4h or 1d, got '" + bar + "'");
        import.bar_ms = *length;
    }
    const TimestampFormat written = timestamps == "iso" ? TimestampFormat::Iso8601 : TimestampFormat::EpochMs;
    install_interrupt_handler();
    // Note [Outputs checked before work]
    std::vector<NamedFile> inputs;
    for (const std::string& file : files) inputs.push_back({"input", file});
    OutputTransaction outputs = open_outputs({{"--output", output}}, inputs, &interrupt_requested());
    std::vector<std::filesystem::path> paths(files.begin(), files.end());
    try {
        if (*format == ImportFormat::BinanceFunding) {
            const FundingHistory history = import_funding(paths, import);
            write_funding_csv(history, outputs.stream(0), written);
            outputs.commit();  // Note [Outputs committed together]
            for (std::size_t s = 0; s < history.symbols.size(); ++s) {
                const auto& list = history.settlements[s];
                std::cout << history.symbols[s] << ": " << list.size() << " funding rates";
                if (!list.empty()) {
                    std::cout << " " << describe_ms(list.front().time_ms) << " .. " << describe_ms(list.back().time_ms);
                }
                std::cout << '\n';
            }
            std::cout << files.size() << (files.size() == 1 ? " file -> " : " files -> ") << output << "\nuse it with: --funding-file " << output << '\n';
            return kExitOk;
        }
        const ImportedBars imported = import_bars(paths, import);
        write_bars_csv(imported.symbols, outputs.stream(0), written);
        outputs.commit();  // Note [Outputs committed together]
        std::cout << "gap report of the source bars:\n";
        for (const SymbolGaps& gaps : imported.gaps) std::cout << "  " << describe_gaps(gaps) << '\n';
        std::size_t bars = 0;
        for (const SymbolBars& s : imported.symbols) bars += s.bars.size();
        std::cout << files.size() << (files.size() == 1 ? " file, " : " files, ") << imported.rows << " rows -> " << output << ": "
                  << imported.symbols.size() << (imported.symbols.size() == 1 ? " symbol, " : " symbols, ") << bars
                  << " bars"
                  << (import.bar_ms != 0 ? " of " + describe_bar_length(import.bar_ms) : std::string()) << "\n"
                  << "use it with: --data " << output << '\n';
    } catch (const std::invalid_argument& e) {
        throw po::error(e.what());
    }
    return kExitOk;
}

}  // namespace

int run_data_command(const std::vector<std::string>& args) {
    const std::string usage =
        "Usage: btforge data synth --output FILE [options]\n"
        "Writes the seeded synthetic market (the default data of every command) as a long CSV.\n" +
        std::string(kImportUsage);
    if (!args.empty() && args.front() == "import") return run_import({args.begin() + 1, args.end()});
    if (args.empty() || args.front() != "synth") {
        if (!args.empty() && (args.front() == "--help" || args.front() == "-h")) {
            std::cout << usage << '\n';
            return kExitOk;
        }
        throw po::error("expected 'btforge data synth' or 'btforge data import'");
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
