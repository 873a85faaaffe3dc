#include <iostream>
#include <stdexcept>

#include "host/app/market_choice.h"
#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/cli/interrupt.h"
#include "host/cli/option_groups.h"
#include "host/data/timestamp_parse.h"
#include "host/indicators/aligned_series.h"
#include "host/indicators/indicator_registry.h"
#include "host/io/number_format.h"

namespace btforge {

namespace po = boost::program_options;

namespace {

// Each indicator with its parameters and outputs, then the inputs it reads
// and its SPEC §5 semantics, then each parameter's domain (Note [Parameter
// domains]), all from the registry.
std::string catalog_text() {
    std::string text = "Indicators (SPEC §5, TA-Lib semantics; values before the lookback are NaN):\n";
    for (const IndicatorDescriptor& d : indicator_catalog()) {
        text += "  " + std::string(d.name) + "(";
        for (std::size_t i = 0; i < d.params.size(); ++i) text += (i ? ", " : "") + std::string(d.params[i].name);
        text += ") -> ";
        for (std::size_t i = 0; i < d.outputs.size(); ++i) text += (i ? ", " : "") + std::string(d.outputs[i]);
        text += "\n      reads ";
        for (std::size_t i = 0; i < d.inputs.size(); ++i) text += (i ? ", " : "") + std::string(price_input_name(d.inputs[i]));
        if (d.cross_symbol) text += " of every symbol";
        // Note [Indicator input column]
        if (takes_input_column(d)) text += " (or the column a spec's \"input\" or --input names)";
        text += "; " + std::string(d.semantics) + "\n      ";
        for (std::size_t i = 0; i < d.params.size(); ++i) {
            text += (i ? "; " : "") + std::string(d.params[i].name) + ": " + describe_domain(d.params[i]);
        }
        text += d.params.empty() ? "no parameters\n" : "\n";
    }
    return text;
}

}  // namespace

int run_indicators_command(const std::vector<std::string>& args) {
    MarketChoice market_choice;
    std::string name;
    std::string input;
    std::vector<std::string> assignments;
    std::string output = "btforge-indicator.csv";
    bool list = false;
    po::options_description options;
    po::options_description indicator("Indicator");
    indicator.add_options()
        ("name,n", po::value(&name)->value_name("NAME"), "indicator, e.g. EMA, BBANDS, ADX")
        ("param,p", po::value(&assignments)->composing()->value_name("NAME=VALUE"),
         "indicator parameter (repeatable), e.g. --param period=14")
        ("input", po::value(&input)->value_name("COLUMN"),
         "the price column a one-input indicator reads instead of its own: open, high, low, close or volume "
         "(MAX of the close, SMA of the volume)")
        ("output,o", po::value(&output)->default_value(output), "CSV: time, symbol, one column per output")
        ("list", po::bool_switch(&list),
         "list the indicators: parameters, outputs, the prices each reads, lookback and meaning");
    options.add(indicator).add(market_options(market_choice));
    if (!parse_command_line(args,
                            "Usage: btforge indicators --name NAME --param NAME=VALUE... [options]\n"
                            "Computes an indicator on every symbol of the market, exactly as sweeps use it.",
                            options)) {
        return kExitOk;
    }
    if (list) {
        std::cout << catalog_text();
        return kExitOk;
    }
    if (name.empty()) throw po::error("--name is required (see --list)");
    const IndicatorDescriptor* descriptor = find_indicator(name);
    if (descriptor == nullptr) throw po::error("unknown indicator '" + name + "'\n" + catalog_text());
    std::vector<double> params(descriptor->params.size());
    std::vector<bool> given(params.size(), false);
    for (const std::string& a : assignments) {
        auto eq = a.find('=');
        std::string key = a.substr(0, eq);
        std::size_t i = 0;
        while (i < params.size() && descriptor->params[i].name != key) ++i;
        if (eq == std::string::npos || i == params.size()) {
            throw po::error("--param " + a + ": expected NAME=VALUE with NAME one of " + name + "'s parameters");
        }
        std::size_t used = 0;
        std::string text = a.substr(eq + 1);
        try {
            params[i] = std::stod(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != text.size()) throw po::error("--param " + a + ": the value is not a number");
        given[i] = true;
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (!given[i]) throw po::error(name + " needs --param " + std::string(descriptor->params[i].name) + "=VALUE");
    }
    validate_indicator_params(*descriptor, params);
    try {
        resolve_input_column(*descriptor, input);
    } catch (const std::invalid_argument& e) {
        throw po::error(std::string("--input ") + input + ": " + e.what());
    }
    install_interrupt_handler();
    // Note [Outputs checked before work]
    OutputTransaction outputs =
        open_outputs({{"--output", output}}, {{"--data", market_choice.data_file}, {"--funding-file", market_choice.funding_file},
                                              {"--instruments", market_choice.instruments_file}},
                     &interrupt_requested());

    LoadedMarket loaded = load_market(market_choice);
    if (!loaded.timestamp_note.empty()) std::cerr << "btforge indicators: " << loaded.timestamp_note << '\n';
    const Market& market = loaded.market;
    std::vector<std::vector<double>> series;
    for (std::string_view out : descriptor->outputs) {
        series.push_back(compute_aligned_series(market, descriptor->name, out, params, input));
    }
    std::ostream& csv = outputs.stream(0);
    csv << "time,symbol";
    for (std::string_view out : descriptor->outputs) csv << ',' << out;
    csv << '\n';
    for (int s = 0; s < market.n_symbols(); ++s) {
        for (int t : market.own_bars[static_cast<std::size_t>(s)]) {
            csv << format_timestamp_iso(market.timestamp_ms[static_cast<std::size_t>(t)]) << ','
                << market.symbols[static_cast<std::size_t>(s)];
            for (const auto& values : series) csv << ',' << format_double(values[market.index(s, t)]);
            csv << '\n';
        }
        if (!csv) break;  // cancelled or failed: the commit says which
    }
    outputs.commit();
    std::cout << name << " on " << loaded.description << " -> " << output << '\n';
    return kExitOk;
}

}  // namespace btforge
