#include "generator/device_code_emitter.h"

#include "generator/device_rewriter.h"
#include "generator/strategy_contract.h"
#include "generator/template_renderer.h"

namespace btforge::gen {

namespace {

// Note [Kernel variants]: the symbol capacity constant, `NAME = VALUE;` in
// the reference, is written `NAME = BTFORGE_SYMBOL_CAPACITY;`, which each
// compilation of the device code defines (templates/btforge_device.cuh). Its
// reference value must be the last variant's capacity: the GPU then holds
// every market the CPU reference does.
std::string symbol_capacity_for_device(const Entity& e, const SymbolCapacity& capacity) {
    const std::vector<Token>& tokens = e.tokens;
    for (std::size_t i = 0; i + 3 < tokens.size(); ++i) {
        if (tokens[i].spelling != e.name || tokens[i + 1].spelling != "=" ||
            tokens[i + 2].kind != Token::Kind::Literal || tokens[i + 3].spelling != ";") {
            continue;
        }
        const std::string& value = tokens[i + 2].spelling;
        const int largest = capacity.variants.back().max_symbols;
        if (value != std::to_string(largest)) {
            throw located_error(e.location, "symbol-capacity",
                                e.qualified_name + " is " + value + " but the largest kernel variant of " +
                                    "spec/generator.json (symbol_capacity.kernel_variants) holds " +
                                    std::to_string(largest) + ": they must be equal");
        }
        std::string text = rewrite_for_device(e);
        const std::string literal = " = " + value + ";";
        std::size_t at = text.find(e.name + literal);
        if (at == std::string::npos) break;
        return text.replace(at + e.name.size(), literal.size(), " = BTFORGE_SYMBOL_CAPACITY;");
    }
    throw located_error(e.location, "symbol-capacity",
                        e.qualified_name + " must be declared `" + e.name + " = <integer literal>;`");
}

}  // namespace

std::string device_code_of(const EmitContext& context, const std::string& strategy) {
    std::set<std::string> in_layout = layout_entity_names(context);
    std::string entities;
    std::string current_file;
    for (const Entity& e : context.model.entities) {
        if (in_layout.count(e.qualified_name) != 0 || owning_strategy(e, context.config) != strategy) continue;
        if (e.location.file != current_file) {
            current_file = e.location.file;
            entities += "// ---- from " + current_file + "\n\n";
        }
        entities += (e.qualified_name == context.config.symbol_capacity.constant
                         ? symbol_capacity_for_device(e, context.config.symbol_capacity)
                         : rewrite_for_device(e)) +
                    "\n\n";
    }
    return entities;
}

bool reads_finer_bars(const EmitContext& context, const std::string& strategy) {
    for (const Entity& e : context.model.entities) {
        if (owning_strategy(e, context.config) != strategy) continue;
        for (const Token& token : e.tokens) {
            if (token.kind == Token::Kind::Identifier && token.spelling == "fine_per_bar") return true;
        }
    }
    return false;
}

OutputFile emit_device_code(const EmitContext& context) {
    std::vector<std::string> inputs = context.reference_files_of("");
    inputs.push_back("templates/btforge_device.cuh");
    inputs.push_back(context.config.origin);  // the first kernel variant
    TemplateData data;
    data.set("stamp", context.stamp.header("device functions (templates/btforge_device.cuh)", inputs));
    const std::string entities = device_code_of(context, "");
    if (entities.find(" = BTFORGE_SYMBOL_CAPACITY;") == std::string::npos) {
        throw std::runtime_error(context.config.origin + ": symbol_capacity.constant '" +
                                 context.config.symbol_capacity.constant +
                                 "' is not a marked constant of the shared device code");
    }
    data.set("entities", entities);
    const KernelVariant& first = context.config.symbol_capacity.variants.front();
    data.set("first_variant", first.name);
    data.set("first_capacity", std::to_string(first.max_symbols));
    return OutputFile{"btforge_device.cuh", render_template(context.templates_dir, "btforge_device.cuh", data)};
}

}  // namespace btforge::gen
