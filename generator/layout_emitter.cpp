#include "generator/layout_emitter.h"

#include "generator/device_rewriter.h"
#include "generator/template_renderer.h"

namespace btforge::gen {

std::set<std::string> layout_entity_names(const EmitContext& context) {
    std::set<std::string> names(context.config.layout_structs.begin(), context.config.layout_structs.end());
    // Close over the marked names the chosen entities mention (array bounds, field types).
    bool grew = true;
    while (grew) {
        grew = false;
        for (const Entity& e : context.model.entities) {
            if (names.count(e.qualified_name) == 0) continue;
            for (const Token& token : e.tokens) {
                if (token.kind != Token::Kind::Identifier) continue;
                for (const Entity& other : context.model.entities) {
                    if (other.name == token.spelling && other.kind != Entity::Kind::Function &&
                        names.insert(other.qualified_name).second) {
                        grew = true;
                    }
                }
            }
        }
    }
    return names;
}

std::string layout_static_asserts(const Entity& e) {
    std::string asserts = "static_assert(sizeof(" + e.name + ") == " + std::to_string(e.size) + ", \"" + e.name +
                          " must have the reference's size\");\n";
    for (const Field& f : e.fields) {
        asserts += "static_assert(__builtin_offsetof(" + e.name + ", " + f.name + ") == " + std::to_string(f.offset) +
                   ", \"" + e.name + "::" + f.name + "\");\n";
    }
    return asserts;
}

OutputFile emit_layout_header(const EmitContext& context) {
    std::set<std::string> names = layout_entity_names(context);
    std::string entities;
    std::string asserts;
    // The indicator array bounds (from spec/generator.json) are in the text.
    std::vector<std::string> inputs = {"templates/btforge_layout.h"};
    if (names.count(context.config.symbol_capacity.constant) != 0) {
        const Entity& capacity = context.entity(context.config.symbol_capacity.constant);
        throw located_error(capacity.location, "symbol-capacity",
                            "the host/device layout names " + capacity.qualified_name +
                                ", but the layout is shared by every kernel variant (Note [Kernel variants]): "
                                "keep per-symbol arrays out of the layout structs (pointers instead)");
    }
    for (const Entity& e : context.model.entities) {
        if (names.count(e.qualified_name) == 0) continue;
        inputs.push_back(e.location.file);
        entities += rewrite_for_device(e) + "\n\n";
        if (e.kind == Entity::Kind::Struct) asserts += layout_static_asserts(e);
    }
    TemplateData data;
    data.set("stamp", context.stamp.header("host/device layout (templates/btforge_layout.h)", inputs));
    data.set("entities", entities);
    data.set("static_asserts", asserts);
    data.set("indicator_max_args", std::to_string(max_indicator_args(context.config)));
    data.set("indicator_max_outputs", std::to_string(max_indicator_outputs(context.config)));
    return OutputFile{"btforge_layout.h", render_template(context.templates_dir, "btforge_layout.h", data)};
}

}  // namespace btforge::gen
