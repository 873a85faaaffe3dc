#include "generator/sweep_kernel_emitter.h"

#include "generator/device_code_emitter.h"
#include "generator/layout_emitter.h"
#include "generator/template_renderer.h"

namespace btforge::gen {

namespace {

std::string digit(std::size_t parameter) {
    std::string p = std::to_string(parameter);
    return "((id / launch.stride[" + p + "]) % launch.radix[" + p + "])";
}

// Mixed radix of the digits of the parameters an indicator use takes, first
// most significant; literal arguments have a single value and add nothing.
std::string local_series_index(const IndicatorUse& use) {
    std::string expr;
    for (const IndicatorArg& arg : use.args) {
        if (!arg.parameter) continue;
        std::string d = digit(*arg.parameter);
        expr = expr.empty() ? d : "(" + expr + ") * launch.radix[" + std::to_string(*arg.parameter) + "] + " + d;
    }
    return expr.empty() ? "0" : expr;
}

std::string unqualified(const std::string& name) {
    std::size_t colon = name.rfind("::");
    return colon == std::string::npos ? name : name.substr(colon + 2);
}

std::vector<std::string> spec_files(const GeneratorConfig& config) {
    std::vector<std::string> out;
    for (const StrategyTarget& t : config.strategies) out.push_back(t.spec_file);
    return out;
}

// What the sweep kernel and the binding both say about a strategy's
// parameters and series, by name and spec position.
void set_parameters_and_series(const StrategySpec& spec, TemplateData& data) {
    TemplateData parameters{TemplateData::type::list};
    for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
        bool integral = spec.parameters[i].type != ParameterType::Double;
        TemplateData p;
        p.set("name", spec.parameters[i].name);
        p.set("index", std::to_string(i));
        p.set("cast_open", integral ? "static_cast<int>(" : "");
        p.set("cast_close", integral ? ")" : "");
        p.set("integral", integral);
        p.set("last", i + 1 == spec.parameters.size());
        parameters << p;
    }
    TemplateData uses{TemplateData::type::list};
    for (std::size_t u = 0; u < spec.indicators.size(); ++u) {
        TemplateData s;
        s.set("id", spec.indicators[u].id);
        s.set("use", std::to_string(u));
        s.set("local", local_series_index(spec.indicators[u]));
        s.set("last", u + 1 == spec.indicators.size());
        uses << s;
    }
    data.set("parameters", parameters);
    data.set("series", uses);
}

}  // namespace

OutputFile emit_sweep_kernel(const EmitContext& context, const StrategyTarget& target) {
    const StrategySpec& spec = target.spec;
    const Entity& params = context.entity(target.params_struct);
    const Entity& series = context.entity(target.series_struct);
    context.entity(target.entry);

    std::vector<std::string> inputs = context.reference_files_of(spec.name);
    inputs.push_back("templates/strategy_sweep.cu");
    inputs.push_back(target.spec_file);
    // The launch bounds come from spec/generator.json; they are in the text,
    // so the file's hash does not take the whole generator spec (whose other
    // entries do not change this file).
    TemplateData data;
    data.set("stamp", context.stamp.header("sweep kernel of " + spec.name + " (templates/strategy_sweep.cu)", inputs));
    data.set("strategy", spec.name);
    data.set("spec_file", target.spec_file);
    data.set("entry", unqualified(target.entry));
    data.set("params_struct", params.name);
    data.set("series_struct", series.name);
    data.set("strategy_code", device_code_of(context, spec.name));
    // Note [Kernels for finer bars]
    const bool finer = reads_finer_bars(context, spec.name);
    data.set("reads_finer_bars", TemplateData(finer));
    // Note [Kernels for a mark price]: the plain kernels of every strategy fold the mark away.
    data.set("market_without_finer_bars", finer ? "without_finer_bars" : "without_mark_price");
    // The emu build compiles this file for the host: the parameter struct's
    // layout is pinned like the layout header's structs.
    data.set("static_asserts", layout_static_asserts(params));
    set_parameters_and_series(spec, data);
    data.set("max_threads", std::to_string(context.config.cuda.max_threads_per_block));
    data.set("min_blocks", std::to_string(context.config.cuda.min_blocks_per_multiprocessor));
    return OutputFile{spec.name + "_sweep.cu", render_template(context.templates_dir, "strategy_sweep.cu", data)};
}

OutputFile emit_strategy_binding(const EmitContext& context, const StrategyTarget& target) {
    const StrategySpec& spec = target.spec;
    std::vector<std::string> inputs = context.reference_files_of(spec.name);
    inputs.push_back("templates/strategy_binding.cpp");
    inputs.push_back(target.spec_file);
    TemplateData data;
    data.set("stamp",
             context.stamp.header("host binding of " + spec.name + " (templates/strategy_binding.cpp)", inputs));
    data.set("strategy", spec.name);
    data.set("spec_file", target.spec_file);
    data.set("spec_name", std::filesystem::path(target.spec_file).filename().string());
    data.set("header", target.header);
    data.set("entry", target.entry);
    data.set("params_struct", target.params_struct);
    data.set("series_struct", target.series_struct);
    data.set("reads_finer_bars", std::string(reads_finer_bars(context, spec.name) ? "true" : "false"));
    set_parameters_and_series(spec, data);
    return OutputFile{spec.name + "_binding.cpp",
                      render_template(context.templates_dir, "strategy_binding.cpp", data)};
}

OutputFile emit_strategy_catalog(const EmitContext& context) {
    TemplateData strategies{TemplateData::type::list};
    for (const StrategyTarget& target : context.config.strategies) {
        TemplateData s;
        s.set("name", target.spec.name);
        strategies << s;
    }
    std::vector<std::string> inputs = spec_files(context.config);
    inputs.push_back("templates/strategy_catalog.cpp");
    TemplateData data;
    data.set("stamp", context.stamp.header("strategy catalog (templates/strategy_catalog.cpp)", inputs));
    data.set("strategies", strategies);
    return OutputFile{"strategy_catalog.cpp", render_template(context.templates_dir, "strategy_catalog.cpp", data)};
}

OutputFile emit_entry_points(const EmitContext& context) {
    TemplateData strategies{TemplateData::type::list};
    for (const StrategyTarget& target : context.config.strategies) {
        TemplateData s;
        s.set("name", target.spec.name);
        strategies << s;
    }
    TemplateData indicators{TemplateData::type::list};
    for (const IndicatorTarget& target : context.config.indicators) {
        TemplateData i;
        i.set("name", target.signature.name);
        indicators << i;
    }
    std::vector<std::string> inputs = spec_files(context.config);
    inputs.push_back("templates/btforge_entry_points.h");
    inputs.push_back(context.config.origin);
    TemplateData data;
    TemplateData variants{TemplateData::type::list};
    for (const KernelVariant& variant : context.config.symbol_capacity.variants) {
        TemplateData v;
        v.set("name", variant.name);
        v.set("max_symbols", std::to_string(variant.max_symbols));
        v.set("suffix", variant.suffix);
        variants << v;
    }
    data.set("stamp", context.stamp.header("kernel entry points (templates/btforge_entry_points.h)", inputs));
    data.set("strategies", strategies);
    data.set("variants", variants);
    data.set("indicators", indicators);
    return OutputFile{"btforge_entry_points.h", render_template(context.templates_dir, "btforge_entry_points.h", data)};
}

}  // namespace btforge::gen
