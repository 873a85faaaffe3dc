#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "host/cli/command_line.h"
#include "host/cli/commands.h"
#include "host/engine/indicator_signatures.h"
#include "host/io/number_format.h"
#include "host/spec/strategy_spec.h"
#include "host/strategies/strategy_binding.h"
#include "spec/embedded_specs.h"

namespace btforge {

namespace po = boost::program_options;

// The strategies this binary carries (Note [Strategy discovery]): scripts
// loop over `btforge strategies --names` instead of keeping a list.
int run_strategies_command(const std::vector<std::string>& args) {
    bool names_only = false;
    po::options_description options("Usage: btforge strategies [--names]\nThe strategies this binary was built with");
    options.add_options()("help,h", "show this help")
        ("names", po::bool_switch(&names_only), "print the names only, one per line (for scripts)");
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(options).run(), vm);
    if (vm.count("help") != 0) {
        std::cout << options << '\n';
        return kExitOk;
    }
    po::notify(vm);
    const std::vector<IndicatorSignature> catalog = indicator_signatures();
    for (const StrategyBinding& binding : strategy_bindings()) {
        if (names_only) {
            std::cout << binding.name << '\n';
            continue;
        }
        std::string file(binding.spec_file);
        std::optional<std::string_view> text = embedded_spec_file(file);
        StrategySpec spec = parse_strategy_spec(text ? *text : std::string_view("{}"), "<embedded spec/" + file + ">",
                                                catalog);
        std::cout << binding.name << "  (spec/" << file << ", " << spec.parameters.size() << " parameters, "
                  << spec.indicators.size() << " indicator series)\n    " << spec.description << '\n';
        // Note [Parameters a mode reads]: the claims, grouped as a grid would condition them.
        std::map<std::pair<std::size_t, std::vector<double>>, std::string> claims;
        for (const ParameterSpec& p : spec.parameters) {
            if (!p.read_when) continue;
            std::string& names = claims[{p.read_when->parameter, p.read_when->values}];
            names += (names.empty() ? "" : ", ") + p.name;
        }
        for (const auto& [when, names] : claims) {
            std::string values;
            for (double v : when.second) values += (values.empty() ? "" : ",") + format_double(v);
            std::cout << "    read only when " << spec.parameters[when.first].name << "=" << values << ": " << names
                      << " (proven; a grid axis may say \"when\": \"spec\")\n";
        }
    }
    return kExitOk;
}

}  // namespace btforge
