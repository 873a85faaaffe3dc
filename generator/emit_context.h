#pragma once

#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "generator/generator_config.h"
#include "generator/input_stamp.h"
#include "generator/kernel_model.h"

namespace btforge::gen {

// What every emitter reads: the parsed reference, the generator spec, the
// stamp, and where the templates are. Emitters never read JSON or sources.
struct EmitContext {
    const ReferenceModel& model;
    const GeneratorConfig& config;
    InputStamp stamp;
    std::filesystem::path templates_dir;

    // The reference files declaring the code of `strategy`
    // (reference/strategies/NAME/...), or with "" those of the shared code:
    // the inputs of the files each is rendered into (Note [Generated files
    // stay local]).
    std::vector<std::string> reference_files_of(const std::string& strategy) const {
        std::vector<std::string> out;
        for (const std::string& file : model.input_files) {
            std::string owner;
            for (const StrategyTarget& t : config.strategies) {
                if (file.rfind("reference/strategies/" + t.spec.name + "/", 0) == 0) owner = t.spec.name;
            }
            if (owner == strategy) out.push_back(file);
        }
        return out;
    }

    const Entity& entity(const std::string& qualified_name) const {
        for (const Entity& e : model.entities) {
            if (e.qualified_name == qualified_name) return e;
        }
        throw std::runtime_error(config.origin + ": no BT_KERNEL entity named '" + qualified_name +
                                 "' in the reference it reads");
    }
};

// A generation error tied to a place in the reference (file:line:col: rule: ...).
inline std::runtime_error located_error(const SourceLocation& at, const std::string& rule, const std::string& what) {
    return std::runtime_error(at.file + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + rule +
                              ": " + what);
}

// The qualified names of the structs shared by host and device: the ones the
// generator spec lists and (transitively) the marked entities their text
// names, e.g. kMaxSymbols.
std::set<std::string> layout_entity_names(const EmitContext& context);

}  // namespace btforge::gen
