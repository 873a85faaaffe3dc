#include "generator/sweep_kernel_emitter.h"

#include "generator/template_renderer.h"

namespace btforge::gen {

namespace {

std::string expected_type(const ParameterSpec& parameter) {
    return parameter.type == ParameterType::Double ? "double" : "int";
}

void check_params_struct(const Entity& params, const StrategySpec& spec) {
    if (params.fields.size() != spec.parameters.size()) {
        throw located_error(params.location, "spec-mismatch",
                            params.name + " has " + std::to_string(params.fields.size()) + " fields but " +
                                spec.origin + " declares " + std::to_string(spec.parameters.size()) + " parameters");
    }
    for (std::size_t i = 0; i < params.fields.size(); ++i) {
        const Field& f = params.fields[i];
        const ParameterSpec& p = spec.parameters[i];
        if (f.name != p.name || f.type != expected_type(p)) {
            throw located_error(params.location, "spec-mismatch",
                                params.name + " field " + std::to_string(i) + " is '" + f.type + " " + f.name +
                                    "' but parameter " + std::to_string(i) + " of " + spec.origin + " is '" +
                                    expected_type(p) + " " + p.name + "' (" + std::string(to_string(p.type)) + ")");
        }
    }
}

void check_series_struct(const Entity& series, const StrategySpec& spec) {
    if (series.fields.size() != spec.indicators.size()) {
        throw located_error(series.location, "spec-mismatch",
                            series.name + " has " + std::to_string(series.fields.size()) + " fields but " +
                                spec.origin + " declares " + std::to_string(spec.indicators.size()) + " indicators");
    }
    for (std::size_t i = 0; i < series.fields.size(); ++i) {
        const Field& f = series.fields[i];
        if (f.name != spec.indicators[i].id || f.type != "const double *") {
            throw located_error(series.location, "spec-mismatch",
                                series.name + " field " + std::to_string(i) + " is '" + f.type + " " + f.name +
                                    "' but indicator " + std::to_string(i) + " of " + spec.origin + " is '" +
                                    spec.indicators[i].id + "' (a const double *)");
        }
    }
}

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

}  // namespace

OutputFile emit_sweep_kernel(const EmitContext& context, const StrategyTarget& target) {
    const StrategySpec& spec = target.spec;
    const Entity& params = context.entity(target.params_struct);
    const Entity& series = context.entity(target.series_struct);
    context.entity(target.entry);
    check_params_struct(params, spec);
    check_series_struct(series, spec);

    TemplateData parameters{TemplateData::type::list};
    for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
        bool integral = spec.parameters[i].type != ParameterType::Double;
        TemplateData p;
        p.set("name", spec.parameters[i].name);
        p.set("index", std::to_string(i));
        p.set("cast_open", integral ? "static_cast<int>(" : "");
        p.set("cast_close", integral ? ")" : "");
        parameters << p;
    }
    TemplateData uses{TemplateData::type::list};
    for (std::size_t u = 0; u < spec.indicators.size(); ++u) {
        TemplateData s;
        s.set("id", spec.indicators[u].id);
        s.set("use", std::to_string(u));
        s.set("local", local_series_index(spec.indicators[u]));
        uses << s;
    }
    TemplateData data;
    data.set("stamp", context.stamp.header("sweep kernel of " + spec.name + " (templates/strategy_sweep.cu)"));
    data.set("strategy", spec.name);
    data.set("spec_file", target.spec_file);
    data.set("entry", unqualified(target.entry));
    data.set("params_struct", params.name);
    data.set("series_struct", series.name);
    data.set("parameters", parameters);
    data.set("series", uses);
    data.set("max_threads", std::to_string(context.config.cuda.max_threads_per_block));
    data.set("min_blocks", std::to_string(context.config.cuda.min_blocks_per_multiprocessor));
    return OutputFile{spec.name + "_sweep.cu", render_template(context.templates_dir, "strategy_sweep.cu", data)};
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
    TemplateData data;
    data.set("stamp", context.stamp.header("kernel entry points (templates/btforge_entry_points.h)"));
    data.set("strategies", strategies);
    data.set("indicators", indicators);
    return OutputFile{"btforge_entry_points.h", render_template(context.templates_dir, "btforge_entry_points.h", data)};
}

}  // namespace btforge::gen
