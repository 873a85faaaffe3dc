#include "generator/strategy_discovery.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "generator/input_files.h"
#include "host/spec/json_input.h"
#include "host/spec/spec_error.h"

namespace btforge::gen {

namespace {

// Folders of reference/strategies/ that hold no strategy.
const std::set<std::string> kSharedFolders = {"tests"};

}  // namespace

std::vector<DiscoveredStrategy> discover_strategies(const std::filesystem::path& root,
                                                    const std::string& reference_namespace) {
    std::vector<std::string> problems;
    std::vector<DiscoveredStrategy> found;
    std::vector<std::filesystem::path> specs;
    for (const auto& entry : std::filesystem::directory_iterator(root / "spec")) {
        if (entry.is_regular_file() && entry.path().extension() == ".json") specs.push_back(entry.path());
    }
    std::sort(specs.begin(), specs.end());
    for (const std::filesystem::path& path : specs) {
        const std::string relative = "spec/" + path.filename().string();
        std::string text = read_input_file(path);
        nlohmann::json doc = spec_detail::parse_json_document(text, relative);
        if (!doc.is_object() || !doc.contains("strategy")) continue;
        if (!doc["strategy"].is_string()) {
            problems.push_back(relative + ": /strategy: expected the strategy's name, a string");
            continue;
        }
        DiscoveredStrategy s;
        s.name = doc["strategy"].get<std::string>();
        s.spec_file = relative;
        s.spec_text = std::move(text);
        if (!spec_detail::is_identifier(s.name) || s.name.find("__") != std::string::npos) {
            problems.push_back(relative + ": /strategy: '" + s.name +
                               "' is not a strategy name (a-z, 0-9, _, starting with a letter, no '__')");
            continue;
        }
        if (path.stem().string() != s.name) {
            problems.push_back(relative + ": /strategy: '" + s.name + "', but a strategy's spec is spec/" + s.name +
                               ".json (Note [Strategy discovery]): rename the file or the strategy");
            continue;
        }
        s.header = "reference/strategies/" + s.name + "/" + s.name + "_strategy.h";
        s.entry = reference_namespace + "::run_" + s.name + "_strategy";
        if (!std::filesystem::is_regular_file(root / s.header)) {
            problems.push_back(relative + ": strategy '" + s.name + "' has no kernel: expected " + s.header +
                               " defining " + s.entry + " (btforge-gen --new-strategy writes a skeleton)");
        }
        const std::string grid = "spec/grids/" + s.name + "_quickstart.json";
        if (!std::filesystem::is_regular_file(root / grid)) {
            problems.push_back(relative + ": strategy '" + s.name + "' has no quickstart grid: expected " + grid);
        }
        const std::string large_grid = "spec/grids/" + s.name + "_bench_large.json";
        if (!std::filesystem::is_regular_file(root / large_grid)) {
            problems.push_back(relative + ": strategy '" + s.name + "' has no speed guard workload: expected " +
                               large_grid + " (about 2^20 combinations, Note [Speed guard] in scripts/speed-guard)");
        }
        found.push_back(std::move(s));
    }
    std::set<std::string> names;
    for (const DiscoveredStrategy& s : found) names.insert(s.name);
    std::vector<std::filesystem::path> folders;
    if (std::filesystem::is_directory(root / "reference/strategies")) {
        for (const auto& entry : std::filesystem::directory_iterator(root / "reference/strategies")) {
            if (entry.is_directory()) folders.push_back(entry.path());
        }
    }
    std::sort(folders.begin(), folders.end());
    for (const std::filesystem::path& folder : folders) {
        const std::string name = folder.filename().string();
        if (kSharedFolders.count(name) != 0 || names.count(name) != 0) continue;
        problems.push_back("reference/strategies/" + name + "/: a strategy folder without its spec: expected spec/" +
                           name + ".json with \"strategy\": \"" + name + "\"");
    }
    if (!problems.empty()) {
        std::string all;
        for (const std::string& p : problems) all += (all.empty() ? "" : "\n") + p;
        throw std::runtime_error(all);
    }
    return found;
}

}  // namespace btforge::gen
