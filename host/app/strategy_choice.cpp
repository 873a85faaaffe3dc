#include "host/app/strategy_choice.h"

#include <stdexcept>

#include "host/app/usage_error.h"
#include "host/engine/cpu_sweep.h"
#include "host/engine/indicator_signatures.h"
#include "host/json/checked_json.h"
#include "host/spec/spec_error.h"
#include "spec/embedded_specs.h"

namespace btforge {

namespace {

// `word` as one shell word: unchanged when it holds only characters that no
// shell treats specially, else in single quotes.
std::string shell_word(const std::string& word) {
    constexpr std::string_view kPlain =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,:/@%";
    if (!word.empty() && word.find_first_not_of(kPlain) == std::string::npos) return word;
    std::string quoted = "'";
    for (char ch : word) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return quoted + "'";
}

// A spec or grid file through read_json_file (Note [Reading input files],
// Note [Checked JSON documents]: a directory, a device or a missing file is
// said as such, a file over 64 MiB is refused before it is read), its
// errors as SpecErrors like the document's own.
std::string read_json_input(const std::string& path) {
    try {
        return read_json_file(path, path);
    } catch (const JsonInputError& e) {
        throw SpecError(e.origin(), e.json_pointer(), e.message());
    }
}

std::string embedded(const std::string& name) {
    auto content = embedded_spec_file(name);
    if (!content) throw std::runtime_error("no embedded spec file " + name + " in this binary");
    return std::string(*content);
}

}  // namespace

LoadedStrategy load_strategy(const StrategyChoice& c) {
    LoadedStrategy loaded;
    std::vector<IndicatorSignature> catalog = indicator_signatures();
    if (!c.spec_file.empty()) {
        loaded.spec_text = read_json_input(c.spec_file);
        loaded.spec = parse_strategy_spec(loaded.spec_text, c.spec_file, catalog);
    } else {
        const StrategyBinding* binding = find_strategy_binding(c.strategy);
        if (binding == nullptr) {
            std::string known;
            for (const StrategyBinding& b : strategy_bindings()) known += (known.empty() ? "" : ", ") + std::string(b.name);
            throw std::runtime_error("unknown strategy '" + c.strategy + "' (built in: " + known + ")");
        }
        std::string file(binding->spec_file);
        loaded.spec_text = embedded(file);
        loaded.spec = parse_strategy_spec(loaded.spec_text, "<embedded spec/" + file + ">", catalog);
    }
    loaded.binding = &bind_strategy(loaded.spec);
    return loaded;
}

Grid load_grid(const StrategyChoice& c, const StrategySpec& spec, std::string_view purpose) {
    try {
        if (!c.grid_file.empty()) return parse_grid(read_json_input(c.grid_file), c.grid_file, spec, c.param_options);
        if (!c.grid_text.empty()) return parse_grid(c.grid_text, c.grid_text_origin, spec, c.param_options);
        if (!c.param_options.empty()) return grid_from_param_options(spec, c.param_options);
    } catch (const ParamOptionSyntaxError& e) {
        throw UsageError(e.what());
    }
    for (std::string_view kind : {purpose, std::string_view("quickstart")}) {
        std::string file = "grids/" + spec.name + "_" + std::string(kind) + ".json";
        if (auto content = embedded_spec_file(file)) return parse_grid(*content, "<embedded spec/" + file + ">", spec);
        // Note [Speed guard]: the large workload is the strategy's own grid or
        // none; another grid would be timed under its name.
        if (kind == "bench_large") {
            throw UsageError("--workload large: strategy '" + spec.name + "' has no spec/" + file +
                             " (every strategy's speed guard workload, Note [Speed guard])");
        }
    }
    return default_grid(spec);
}

std::string strategy_arguments(const StrategyChoice& c) {
    std::string text = " --strategy " + shell_word(c.strategy);
    if (!c.spec_file.empty()) text += " --spec " + shell_word(c.spec_file);
    if (!c.grid_file.empty()) text += " --grid " + shell_word(c.grid_file);
    for (const std::string& option : c.param_options) text += " --param " + shell_word(option);
    return text;
}

}  // namespace btforge
