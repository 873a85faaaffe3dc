#include "host/cuda/jit_source.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "host/spec/combination_space.h"
#include "host/spec/strategy_spec.h"

namespace btforge::cuda {

namespace {

constexpr std::string_view kKernelSuffix = "_sweep.cu";

const EmbeddedText* find_kernel(std::string_view strategy) {
    for (const EmbeddedText& kernel : detail::embedded_generated_kernels()) {
        std::string_view name = kernel.name;
        if (name.size() == strategy.size() + kKernelSuffix.size() && name.substr(0, strategy.size()) == strategy &&
            name.substr(strategy.size()) == kKernelSuffix) {
            return &kernel;
        }
    }
    return nullptr;
}

}  // namespace

bool has_embedded_jit_source(std::string_view strategy) { return find_kernel(strategy) != nullptr; }

JitSource embedded_jit_source(std::string_view strategy) {
    const EmbeddedText* kernel = find_kernel(strategy);
    if (kernel == nullptr) {
        std::string have;
        for (const EmbeddedText& k : detail::embedded_generated_kernels()) {
            std::string_view name = k.name;
            have += (have.empty() ? "" : ", ") + std::string(name.substr(0, name.size() - kKernelSuffix.size()));
        }
        throw std::runtime_error("no generated source for strategy '" + std::string(strategy) +
                                 "' in this binary (--jit has: " + (have.empty() ? "none" : have) + ")");
    }
    JitSource source;
    source.name = kernel->name;
    source.text = kernel->text;
    for (const EmbeddedText& header : detail::embedded_generated_headers()) {
        source.headers.emplace_back(header.name, header.text);
    }
    source.entry_point = "btforge_" + std::string(strategy) + "_sweep";
    return source;
}

std::vector<FixedParameter> fixed_parameters(const StrategySpec& spec, const CombinationSpace& space) {
    // Digits are ordered by significance; spec order reads better in logs.
    std::vector<std::pair<std::size_t, FixedParameter>> found;
    for (const CombinationSpace::Digit& digit : space.digits()) {
        if (digit.radix != 1 || digit.values.size() != 1) continue;
        const ParameterSpec& parameter = spec.parameters.at(digit.parameter);
        found.emplace_back(digit.parameter, FixedParameter{parameter.name, parameter.type != ParameterType::Double,
                                                           digit.values.front()});
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<FixedParameter> fixed;
    for (auto& [index, parameter] : found) fixed.push_back(std::move(parameter));
    return fixed;
}

std::string exact_double_literal(double value) {
    if (!std::isfinite(value)) {
        throw std::invalid_argument("a folded parameter must be finite, not " + std::to_string(value));
    }
    char buffer[64];
    const double magnitude = std::fabs(value);
    // std::to_chars in hex form: the shortest exact digits, no "0x".
    auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, magnitude, std::chars_format::hex);
    if (error != std::errc{}) throw std::invalid_argument("cannot format a folded parameter");
    std::string literal = "0x" + std::string(buffer, end);
    return std::signbit(value) ? "(-" + literal + ")" : literal;
}

std::string fixed_parameter_literal(const FixedParameter& parameter) {
    if (!parameter.integral) return exact_double_literal(parameter.value);
    if (parameter.value != std::trunc(parameter.value) || std::fabs(parameter.value) > 9.0e15) {
        throw std::invalid_argument("integral parameter '" + parameter.name + "' has a non-integer value " +
                                    std::to_string(parameter.value));
    }
    const long long integer = static_cast<long long>(parameter.value);
    return integer < 0 ? "(" + std::to_string(integer) + ")" : std::to_string(integer);
}

std::vector<std::string> jit_compile_options(int compute_major, int compute_minor, bool cubin,
                                             std::vector<FixedParameter> fixed) {
    const std::string arch = std::to_string(compute_major) + std::to_string(compute_minor);
    std::vector<std::string> options = {
        "--gpu-architecture=" + std::string(cubin ? "sm_" : "compute_") + arch,
        "--fmad=false",
        "-std=c++17",
        std::string(kNvrtcOffsetofOption),
    };
    std::sort(fixed.begin(), fixed.end(), [](const FixedParameter& a, const FixedParameter& b) { return a.name < b.name; });
    for (const FixedParameter& parameter : fixed) {
        options.push_back("-DBTFORGE_FIXED_" + parameter.name + "=" + fixed_parameter_literal(parameter));
    }
    return options;
}

}  // namespace btforge::cuda
