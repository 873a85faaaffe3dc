#include "generator/indicator_kernel_emitter.h"

#include <cctype>

#include "generator/template_renderer.h"

namespace btforge::gen {

namespace {

// The reference functions the block-level breadth kernel of the template
// calls by name (Note [Breadth on the GPU] in templates/indicator_series.cu).
constexpr const char* kBreadthFunctions[] = {"btforge::breadth_vote", "btforge::breadth_ratio"};

std::string unqualified(const std::string& name) {
    std::size_t colon = name.rfind("::");
    return colon == std::string::npos ? name : name.substr(colon + 2);
}

std::string join(const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
    return out;
}

// The argument list of the call to `function` for indicator `target`, e.g.
// "own.high, own.low, own.close, n, static_cast<int>(job.args[0]), out[0]",
// or "own_price_column(own, job.input), n, ..." for a one-input indicator.
std::string call_arguments(const Entity& function, const IndicatorTarget& target) {
    const IndicatorSignature& sig = target.signature;
    const std::vector<Parameter>& params = function.parameters;
    const std::size_t expected = sig.inputs.size() + 1 + sig.params.size() + sig.outputs.size();
    auto mismatch = [&](const std::string& what) {
        return located_error(function.location, "indicator-signature",
                             function.name + " cannot compute " + sig.name + ": " + what + " (expected: " +
                                 std::to_string(sig.inputs.size()) + " const double * input(s) " + join(sig.inputs) +
                                 ", int n, parameter(s) " + join(sig.params) + ", " +
                                 std::to_string(sig.outputs.size()) + " double * output(s) " + join(sig.outputs) + ")");
    };
    if (params.size() != expected) {
        throw mismatch("it takes " + std::to_string(params.size()) + " arguments, not " + std::to_string(expected));
    }
    std::vector<std::string> args;
    std::size_t k = 0;
    for (const std::string& input : sig.inputs) {
        const Parameter& p = params[k++];
        // A single-input kernel may call its input `in`.
        bool named = p.name == input || (sig.inputs.size() == 1 && p.name == "in");
        if (p.type != "const double *" || !named) {
            throw mismatch("argument '" + p.type + " " + p.name + "' should be the input 'const double * " + input + "'");
        }
        // One that can read any column reads the job's (Note [Indicator input
        // column] in host/indicators/indicator_registry.h).
        args.push_back(sig.input_columns.empty() ? "own." + input : "own_price_column(own, job.input)");
    }
    const Parameter& n = params[k++];
    if (n.type != "int" || n.name != "n") throw mismatch("argument '" + n.type + " " + n.name + "' should be 'int n'");
    args.push_back("n");
    for (std::size_t i = 0; i < sig.params.size(); ++i) {
        const Parameter& p = params[k++];
        // A whole-number parameter (a period) is an int; any other a double,
        // so that k = 1.5 is never truncated.
        const bool integer = i < sig.integer_params.size() && sig.integer_params[i];
        const std::string type = integer ? "int" : "double";
        if (p.type != type || p.name != sig.params[i]) {
            throw mismatch("argument '" + p.type + " " + p.name + "' should be the parameter '" + type + " " +
                           sig.params[i] + "'");
        }
        std::string arg = "job.args[" + std::to_string(i) + "]";
        args.push_back(p.type == "int" ? "static_cast<int>(" + arg + ")" : arg);
    }
    for (std::size_t i = 0; i < sig.outputs.size(); ++i) {
        const Parameter& p = params[k++];
        // Outputs go by position, so with several of them each must be named
        // after its catalog output (`upper`, `out_slowk`, `macd_signal`): a
        // swapped pair would otherwise reach the wrong series.
        const std::string& o = sig.outputs[i];
        std::string prefix;
        for (char c : sig.name) prefix += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const bool named = sig.outputs.size() == 1 || p.name == o || p.name == "out_" + o || p.name == prefix + "_" + o;
        if (p.type != "double *" || !named) {
            throw mismatch("argument '" + p.type + " " + p.name + "' should be the output 'double * " + o + "'");
        }
        args.push_back("out[" + std::to_string(i) + "]");
    }
    return join(args);
}

}  // namespace

OutputFile emit_indicator_kernels(const EmitContext& context) {
    for (const char* name : kBreadthFunctions) context.entity(name);
    TemplateData indicators{TemplateData::type::list};
    for (std::size_t kind = 0; kind < context.config.indicators.size(); ++kind) {
        const IndicatorTarget& target = context.config.indicators[kind];
        const Entity& function = context.entity(target.function);
        TemplateData d;
        d.set("kind", std::to_string(kind));
        d.set("name", target.signature.name);
        d.set("function", unqualified(target.function));
        d.set("arguments", call_arguments(function, target));
        indicators << d;
    }
    TemplateData data;
    std::vector<std::string> inputs = context.reference_files_of("");
    inputs.push_back("templates/indicator_series.cu");
    inputs.push_back(context.config.origin);
    data.set("stamp", context.stamp.header("indicator kernels (templates/indicator_series.cu)", inputs));
    data.set("indicators", indicators);
    return OutputFile{"indicator_series.cu", render_template(context.templates_dir, "indicator_series.cu", data)};
}

}  // namespace btforge::gen
