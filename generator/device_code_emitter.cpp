#include "generator/device_code_emitter.h"

#include "generator/device_rewriter.h"
#include "generator/strategy_contract.h"
#include "generator/template_renderer.h"

namespace btforge::gen {

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
        entities += rewrite_for_device(e) + "\n\n";
    }
    return entities;
}

OutputFile emit_device_code(const EmitContext& context) {
    std::vector<std::string> inputs = context.reference_files_of("");
    inputs.push_back("templates/btforge_device.cuh");
    TemplateData data;
    data.set("stamp", context.stamp.header("device functions (templates/btforge_device.cuh)", inputs));
    data.set("entities", device_code_of(context, ""));
    return OutputFile{"btforge_device.cuh", render_template(context.templates_dir, "btforge_device.cuh", data)};
}

}  // namespace btforge::gen
