#include "generator/template_renderer.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace btforge::gen {

std::string render_template(const std::filesystem::path& templates_dir, const std::string& name,
                            const TemplateData& data) {
    std::ifstream in(templates_dir / name, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read template templates/" + name);
    std::ostringstream text;
    text << in.rdbuf();
    kainjow::mustache::mustache tmpl(text.str());
    if (!tmpl.is_valid()) throw std::runtime_error("templates/" + name + ": " + tmpl.error_message());
    tmpl.set_custom_escape([](const std::string& s) { return s; });
    std::string out = tmpl.render(data);
    if (!tmpl.is_valid()) throw std::runtime_error("templates/" + name + ": " + tmpl.error_message());
    return out;
}

}  // namespace btforge::gen
