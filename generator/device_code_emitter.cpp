#include "generator/device_code_emitter.h"

#include "generator/device_rewriter.h"
#include "generator/template_renderer.h"

namespace btforge::gen {

OutputFile emit_device_code(const EmitContext& context) {
    std::set<std::string> in_layout = layout_entity_names(context);
    std::string entities;
    std::string current_file;
    for (const Entity& e : context.model.entities) {
        if (in_layout.count(e.qualified_name) != 0) continue;
        if (e.location.file != current_file) {
            current_file = e.location.file;
            entities += "// ---- from " + current_file + "\n\n";
        }
        entities += rewrite_for_device(e) + "\n\n";
    }
    TemplateData data;
    data.set("stamp", context.stamp.header("device functions (templates/btforge_device.cuh)"));
    data.set("entities", entities);
    return OutputFile{"btforge_device.cuh", render_template(context.templates_dir, "btforge_device.cuh", data)};
}

}  // namespace btforge::gen
