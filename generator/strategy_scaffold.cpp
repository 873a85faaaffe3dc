#include "generator/strategy_scaffold.h"

#include <cctype>
#include <stdexcept>
#include <system_error>

#include "generator/template_renderer.h"
#include "host/io/output_transaction.h"

namespace btforge::gen {

namespace {

constexpr std::size_t kMaxNameLength = 48;

// snake_case -> CamelCase, the prefix of the strategy's struct names.
std::string type_prefix(const std::string& name) {
    std::string out;
    bool upper = true;
    for (char c : name) {
        if (c == '_') {
            upper = true;
            continue;
        }
        out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return out;
}

void check_name(const std::string& name) {
    auto lower_or_digit = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; };
    bool ok = !name.empty() && name.size() <= kMaxNameLength && name.front() >= 'a' && name.front() <= 'z';
    for (char c : name) ok = ok && lower_or_digit(c);
    if (!ok) {
        throw std::runtime_error("strategy name '" + name +
                                 "': expected a lower-case C identifier (a-z, 0-9, _; starting with a letter; at "
                                 "most " + std::to_string(kMaxNameLength) + " characters), e.g. breakout_atr");
    }
    if (name.find("__") != std::string::npos || name.back() == '_') {
        throw std::runtime_error("strategy name '" + name +
                                 "': no double or trailing underscores (its struct names are built from the parts)");
    }
}

}  // namespace

std::vector<OutputFile> render_strategy_scaffold(const std::filesystem::path& templates_dir, const std::string& name) {
    check_name(name);
    TemplateData data;
    data.set("name", name);
    data.set("type", type_prefix(name));
    const std::string folder = "reference/strategies/" + name + "/";
    return {
        {folder + name + "_strategy.h", render_template(templates_dir, "new_strategy/strategy.h", data)},
        {folder + "tests/" + name + "_scenarios_test.cpp",
         render_template(templates_dir, "new_strategy/scenarios_test.cpp", data)},
        {"spec/" + name + ".json", render_template(templates_dir, "new_strategy/spec.json", data)},
        {"spec/grids/" + name + "_quickstart.json", render_template(templates_dir, "new_strategy/quickstart_grid.json", data)},
        {"spec/grids/" + name + "_bench_large.json",
         render_template(templates_dir, "new_strategy/bench_large_grid.json", data)},
    };
}

std::vector<std::string> write_strategy_scaffold(const std::filesystem::path& root, const std::string& name) {
    std::vector<OutputFile> files = render_strategy_scaffold(root / "templates", name);
    const std::filesystem::path folder = root / "reference" / "strategies" / name;
    if (std::filesystem::exists(folder)) {
        throw std::runtime_error("reference/strategies/" + name + "/ exists already: strategy '" + name +
                                 "' is taken (pick another name, or remove the folder first)");
    }
    for (const OutputFile& file : files) {
        if (std::filesystem::exists(root / file.name)) {
            throw std::runtime_error(file.name + " exists already: strategy '" + name +
                                     "' is taken (pick another name, or remove the file first)");
        }
    }
    // The folders first (the temporaries live beside their destinations);
    // on failure the ones made here are removed again.
    std::vector<std::filesystem::path> made;
    auto remove_made = [&made] {
        std::error_code ignored;
        for (auto it = made.rbegin(); it != made.rend(); ++it) std::filesystem::remove(*it, ignored);
    };
    try {
        for (const OutputFile& file : files) {
            std::filesystem::path parent = (root / file.name).parent_path();
            std::vector<std::filesystem::path> missing;
            for (std::filesystem::path p = parent; !std::filesystem::exists(p); p = p.parent_path()) missing.push_back(p);
            for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
                std::filesystem::create_directory(*it);
                made.push_back(*it);
            }
        }
        OutputTransaction transaction;
        for (const OutputFile& file : files) transaction.stream(transaction.add(root / file.name)) << file.content;
        transaction.commit();
    } catch (...) {
        remove_made();
        throw;
    }
    std::vector<std::string> written;
    for (const OutputFile& file : files) written.push_back(file.name);
    return written;
}

}  // namespace btforge::gen
