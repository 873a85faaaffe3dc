#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/interrupt.h"
#include "host/app/market_choice.h"
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

int run_import(const std::vector<std::string>& args) {
    std::string format_name;
    std::string output;
    std::string symbol;
    std::string columns;
    std::string timestamp_unit = "auto";
    std::string bar;
    std::string bar_offset;
    std::string timestamps = "iso";
    po::options_description options("Import");
    options.add_options()
        ("format", po::value(&format_name)->required()->value_name("FORMAT"),
         "binance-klines (USD-M futures kline dumps, with or without header, ms or us times), binance-funding "
         "(funding-rate history dumps), csv (any CSV with a header; see --columns)")
        ("output,o", po::value(&output)->required()->value_name("CSV"), "file to write")
        ("symbol", po::value(&symbol)->value_name("SYMBOL"),
         "the symbol of every file (default: a csv's symbol column, or the file name before its -INTERVAL-DATE "
         "suffix: BTCUSDT of BTCUSDT-1m-2024-01.csv)")
        ("columns", po::value(&columns)->value_name("NAME=COLUMN,..."),
         "csv: the file's column of timestamp, open, high, low, close, volume and symbol (unmapped ones keep their "
         "names; a symbol column is used when there is one)")
        ("timestamp-unit", po::value(&timestamp_unit)->default_value(timestamp_unit)->value_name("UNIT"),
         "unit of integer timestamps: s, ms, us, ns, or auto (per file, from their magnitudes)")
        ("bar", po::value(&bar)->value_name("LENGTH"),
         "resample to bars of this length (30s, 5m, 1h, 4h, 1d; at most 7d), aligned to the epoch")
        ("bar-offset", po::value(&bar_offset)->value_name("LENGTH"),
         "with --bar: bars open this long after the epoch's boundaries (--bar 1h --bar-offset 30m: at :30, for "
         "source bars opening at :30)")
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
        try {
            import.columns = parse_column_mapping(columns);
        } catch (const std::invalid_argument& e) {
            throw po::error(e.what());
        }
    }
    const auto bar_length = [](const char* option, const std::string& text) {
        const std::optional<std::int64_t> length = parse_bar_length(text);
        if (!length) {
            throw po::error(std::string(option) + " expects a length from 1s to " + describe_bar_length(kMaxBarMs) +
                            " like 30s, 5m, 1h, 4h or 1d, got '" + text + "'");
        }
        return *length;
    };
    if (!bar.empty()) {
        if (*format == ImportFormat::BinanceFunding) throw po::error("--bar resamples bars; funding rates are not bars");
        import.bar_ms = bar_length("--bar", bar);
    }
    if (!bar_offset.empty()) {
        if (bar.empty()) throw po::error("--bar-offset applies to --bar");
        import.bar_offset_ms = bar_length("--bar-offset", bar_offset);
        if (import.bar_offset_ms >= import.bar_ms) throw po::error("--bar-offset must be shorter than --bar");
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
        for (const std::string& note : imported.notes) std::cout << note << '\n';
        std::cout << "gap report of the source bars:\n";
        for (const SymbolGaps& gaps : imported.gaps) std::cout << "  " << describe_gaps(gaps) << '\n';
        std::size_t bars = 0;
        for (const SymbolBars& s : imported.symbols) bars += s.bars.size();
        std::cout << files.size() << (files.size() == 1 ? " file, " : " files, ") << imported.rows << " rows -> " << output << ": "
                  << imported.symbols.size() << (imported.symbols.size() == 1 ? " symbol, " : " symbols, ") << bars
                  << " bars"
                  << (import.bar_ms != 0 ? " of " + describe_bar_length(import.bar_ms) : std::string())
                  << (import.bar_offset_ms != 0 ? " opening " + describe_bar_length(import.bar_offset_ms) +
                                                      " past the epoch's boundaries"
                                                : std::string())
                  << "\n"
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
