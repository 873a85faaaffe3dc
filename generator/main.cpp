// btforge-gen: reference/ + spec/ + templates/ -> generated/.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "generator/device_code_emitter.h"
#include "generator/generator_config.h"
#include "generator/indicator_kernel_emitter.h"
#include "generator/input_stamp.h"
#include "generator/layout_emitter.h"
#include "generator/parameter_claims.h"
#include "generator/reference_parser.h"
#include "generator/strategy_contract.h"
#include "generator/strategy_scaffold.h"
#include "generator/sweep_kernel_emitter.h"

namespace po = boost::program_options;
using namespace btforge::gen;

namespace {

int generate(const std::filesystem::path& root, const std::string& config_path, const std::filesystem::path& out,
             bool check) {
    auto started = std::chrono::steady_clock::now();
    GeneratorConfig config = load_generator_config(root, config_path);
    ParseOptions parse;
    parse.repository_root = root;
    parse.entry_headers = config.reference_headers;
    ReferenceModel model = parse_reference(parse);
    std::vector<Violation> violations = model.violations;
    std::size_t subset_violations = violations.size();
    for (Violation& v : check_strategy_contracts(model, config)) violations.push_back(std::move(v));
    std::size_t contract_violations = violations.size() - subset_violations;
    // The proof reads the params and series structs the contract found.
    if (contract_violations == 0) {
        for (Violation& v : check_parameter_claims(model, config)) violations.push_back(std::move(v));
    }
    std::size_t claim_violations = violations.size() - subset_violations - contract_violations;
    if (!violations.empty()) {
        for (const Violation& v : violations) {
            std::cerr << v.location.file << ':' << v.location.line << ':' << v.location.column << ": " << v.rule
                      << ": " << v.explanation << '\n';
        }
        std::vector<std::string> kinds;
        if (subset_violations > 0)
            kinds.push_back(std::to_string(subset_violations) + " use(s) of C++ outside the device subset (SPEC §2)");
        if (contract_violations > 0) {
            kinds.push_back(std::to_string(contract_violations) +
                            " break(s) of a strategy's contract with its spec (Note [The strategy contract])");
        }
        if (claim_violations > 0) {
            kinds.push_back(std::to_string(claim_violations) +
                            " read(s) a spec's read_when claim does not allow (Note [Parameters a mode reads])");
        }
        std::cerr << "btforge-gen: ";
        for (std::size_t i = 0; i < kinds.size(); ++i) std::cerr << (i == 0 ? "" : " and ") << kinds[i];
        std::cerr << "; nothing generated\n";
        return 1;
    }
    EmitContext context{model, config, InputStamp{BTFORGE_VERSION, root, root}, root / "templates"};
    std::vector<OutputFile> files;
    files.push_back(emit_layout_header(context));
    files.push_back(emit_device_code(context));
    for (const StrategyTarget& target : config.strategies) {
        files.push_back(emit_sweep_kernel(context, target));
        files.push_back(emit_strategy_binding(context, target));
    }
    files.push_back(emit_strategy_catalog(context));
    if (!config.indicators.empty()) files.push_back(emit_indicator_kernels(context));
    files.push_back(emit_entry_points(context));
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    if (check) {
        std::string diff = diff_against_folder(out, files);
        if (!diff.empty()) {
            std::cout << diff;
            std::cerr << "btforge-gen --check: generated/ is stale; run the build (or btforge-gen) and commit it\n";
            return 1;
        }
        std::cerr << "btforge-gen --check: generated/ is up to date (" << files.size() << " files, " << seconds
                  << " s)\n";
        return 0;
    }
    std::vector<std::string> written = write_changed_files(out, files);
    std::cerr << "btforge-gen: " << model.entities.size() << " reference entities from " << model.input_files.size()
              << " files -> " << files.size() << " files in " << out.string() << " (" << written.size()
              << " changed) in " << seconds << " s\n";
    return 0;
}

// Note [The strategy scaffold].
int new_strategy_command(const std::filesystem::path& root, const std::string& name) {
    for (const std::string& path : write_strategy_scaffold(root, name)) std::cout << "wrote " << path << '\n';
    std::cout << "next: build (cmake --build --preset ci, or your preset), then\n"
              << "  btforge sweep --strategy " << name << " --backend emu\n"
              << "  btforge parity --backend emu --strategy " << name << '\n'
              << "and change the rule in reference/strategies/" << name << "/" << name
              << "_strategy.h (docs/WRITING_A_STRATEGY.md)\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string root = ".";
    std::string config = "spec/generator.json";
    std::string out;
    bool check = false;
    std::string new_strategy;
    po::options_description options(
        "Usage: btforge-gen [options]\n"
        "Reads the BT_KERNEL code of reference/ with libclang and renders templates/ into generated/.");
    options.add_options()("help,h", "show this help")
        ("root", po::value(&root)->default_value(root), "repository root")
        ("config", po::value(&config)->default_value(config), "generator spec, relative to the root")
        ("out", po::value(&out), "output folder (default: <root>/generated)")
        ("check", po::bool_switch(&check), "regenerate in memory; exit 1 with a unified diff if generated/ differs")
        ("new-strategy", po::value(&new_strategy)->value_name("NAME"),
         "write a new strategy's kernel, spec, quickstart grid and scenario test (a working skeleton: "
         "docs/WRITING_A_STRATEGY.md) under the root, then exit; generates nothing");
    try {
        po::variables_map vm;
        po::store(po::parse_command_line(argc, argv, options), vm);
        if (vm.count("help") != 0) {
            std::cout << options << '\n';
            return 0;
        }
        po::notify(vm);
        std::filesystem::path root_path = std::filesystem::absolute(root).lexically_normal();
        if (vm.count("new-strategy") != 0) return new_strategy_command(root_path, new_strategy);
        std::filesystem::path out_path =
            (out.empty() ? root_path / "generated" : std::filesystem::absolute(out)).lexically_normal();
        // The stamp hashes input paths relative to the root, however --config was spelled.
        std::filesystem::path config_path = std::filesystem::path(config);
        if (config_path.is_absolute()) config_path = config_path.lexically_relative(root_path);
        return generate(root_path, config_path.lexically_normal().generic_string(), out_path, check);
    } catch (const po::error& e) {
        std::cerr << "btforge-gen: " << e.what() << "\n" << options << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "btforge-gen: error: " << e.what() << '\n';
        return 1;
    }
}
