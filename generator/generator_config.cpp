#include "generator/generator_config.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>

#include "generator/input_files.h"
#include "generator/strategy_discovery.h"
#include "host/engine/indicator_signatures.h"
#include "host/spec/json_input.h"
#include "host/spec/spec_error.h"

namespace btforge::gen {

namespace {

using spec_detail::JsonNode;

std::vector<std::string> string_list(const JsonNode& node) {
    std::vector<std::string> out;
    std::size_t n = node.expect_array("an array of strings");
    for (std::size_t i = 0; i < n; ++i) out.push_back(node.element(i).as_string());
    return out;
}

// Note [Kernel variants]: ascending capacities, distinct identifier names.
// That the last capacity is the reference's own is checked once the
// reference is parsed (check_symbol_capacity).
SymbolCapacity read_symbol_capacity(const JsonNode& node) {
    node.expect_object().allow_only_keys({"constant", "kernel_variants"});
    SymbolCapacity capacity;
    capacity.constant = node.require("constant").as_string();
    JsonNode variants = node.require("kernel_variants");
    std::size_t n =
        variants.expect_array("an array of {\"name\", \"max_symbols\"[, \"spills_checked\"]} objects, smallest first");
    if (n == 0) variants.fail("at least one kernel variant", "an empty array");
    for (std::size_t i = 0; i < n; ++i) {
        JsonNode v = variants.element(i);
        v.expect_object().allow_only_keys({"name", "max_symbols", "spills_checked"});
        KernelVariant variant;
        variant.name = v.require("name").as_identifier();
        JsonNode max_symbols = v.require("max_symbols");
        std::uint64_t most = max_symbols.as_unsigned();
        if (most < 1 || most > 1u << 20) max_symbols.fail("a symbol count in 1..1048576", std::to_string(most));
        variant.max_symbols = static_cast<int>(most);
        if (std::optional<JsonNode> checked = v.find("spills_checked")) variant.spills_checked = checked->as_bool();
        for (const KernelVariant& before : capacity.variants) {
            if (before.name == variant.name) v.require("name").fail("a name no other variant has", variant.name);
            if (before.max_symbols >= variant.max_symbols) {
                max_symbols.fail("more than the previous variant's " + std::to_string(before.max_symbols) +
                                     " (smallest first)",
                                 std::to_string(variant.max_symbols));
            }
        }
        variant.suffix = i == 0 ? "" : "_" + variant.name;
        capacity.variants.push_back(std::move(variant));
    }
    return capacity;
}

}  // namespace

std::size_t max_indicator_args(const GeneratorConfig& config) {
    std::size_t most = 1;
    for (const IndicatorTarget& t : config.indicators) most = std::max(most, t.signature.params.size());
    return most;
}

std::size_t max_indicator_outputs(const GeneratorConfig& config) {
    std::size_t most = 1;
    for (const IndicatorTarget& t : config.indicators) most = std::max(most, t.signature.outputs.size());
    return most;
}

GeneratorConfig load_generator_config(const std::filesystem::path& root, const std::string& relative_path) {
    GeneratorConfig config;
    config.origin = relative_path;
    nlohmann::json doc = spec_detail::parse_json_document(read_input_file(root / relative_path), relative_path);
    JsonNode top(doc, "", config.origin);
    top.expect_object().allow_only_keys(
        {"reference", "layout", "namespace", "indicator_kernels", "cuda", "symbol_capacity", "strategy_entry"});
    config.reference_headers = string_list(top.require("reference"));
    config.layout_structs = string_list(top.require("layout"));

    std::vector<IndicatorSignature> catalog = indicator_signatures();
    // Note [Strategy discovery]: the strategies are found, not listed.
    std::string reference_namespace = "btforge";
    if (std::optional<JsonNode> ns = top.find("namespace")) reference_namespace = ns->as_string();
    for (DiscoveredStrategy& found : discover_strategies(root, reference_namespace)) {
        StrategyTarget target;
        target.spec_file = found.spec_file;
        target.header = found.header;
        target.entry = found.entry;
        target.spec = parse_strategy_spec(found.spec_text, target.spec_file, catalog);
        config.reference_headers.push_back(found.header);
        config.strategies.push_back(std::move(target));
    }

    // Optional: without it nothing is generated for indicators. With it,
    // every per-symbol indicator NAME of the catalog runs on the GPU as the
    // reference's <namespace>::name_compute of reference/indicators/name.h
    // (Note [One indicator table]); their headers are read first, in catalog
    // order, before the listed ones.
    if (std::optional<JsonNode> kernels = top.find("indicator_kernels"); kernels && kernels->as_bool()) {
        std::vector<std::string> headers;
        for (const IndicatorSignature& signature : catalog) {
            if (signature.cross_symbol) continue;
            std::string stem = signature.name;
            for (char& ch : stem) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            IndicatorTarget target;
            target.signature = signature;
            target.function = reference_namespace + "::" + stem + "_compute";
            config.indicators.push_back(std::move(target));
            headers.push_back("reference/indicators/" + stem + ".h");
        }
        config.reference_headers.insert(config.reference_headers.begin(), headers.begin(), headers.end());
    }

    JsonNode cuda = top.require("cuda");
    cuda.expect_object().allow_only_keys(
        {"architectures", "ptx", "max_threads_per_block", "min_blocks_per_multiprocessor", "max_spill_bytes",
         "spill_checked"});
    config.cuda.architectures = string_list(cuda.require("architectures"));
    config.cuda.ptx = cuda.require("ptx").as_string();
    config.cuda.max_threads_per_block = static_cast<int>(cuda.require("max_threads_per_block").as_unsigned());
    config.cuda.min_blocks_per_multiprocessor =
        static_cast<int>(cuda.require("min_blocks_per_multiprocessor").as_unsigned());
    // Read by the build (cmake/CompileFatbin.cmake), validated here.
    if (std::optional<JsonNode> spill = cuda.find("max_spill_bytes")) spill->as_unsigned();
    if (std::optional<JsonNode> checked = cuda.find("spill_checked")) string_list(*checked);

    config.symbol_capacity = read_symbol_capacity(top.require("symbol_capacity"));

    // Optional: without it only the series and params structs' positions
    // (2 and 3) are checked.
    if (std::optional<JsonNode> entry = top.find("strategy_entry")) {
        const std::size_t count = entry->expect_array();
        int series = 0;
        int params = 0;
        for (std::size_t i = 0; i < count; ++i) {
            JsonNode parameter = entry->element(i);
            parameter.expect_object().allow_only_keys({"name", "type"});
            EntryParameter p{parameter.require("name").as_identifier(), parameter.require("type").as_string()};
            series += p.type == "series" ? 1 : 0;
            params += p.type == "params" ? 1 : 0;
            config.strategy_entry.push_back(std::move(p));
        }
        if (series != 1 || params != 1 || config.strategy_entry.size() < 3 ||
            config.strategy_entry[1].type != "series" || config.strategy_entry[2].type != "params") {
            entry->fail("the entry's parameters with \"series\" second and \"params\" third, once each",
                        std::to_string(count) + " parameters");
        }
    }
    return config;
}

}  // namespace btforge::gen
