#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace btforge {
class CombinationSpace;
struct StrategySpec;
}  // namespace btforge

namespace btforge::cuda {

// Note [Embedded generated sources]
// For --jit the binary carries the text of generated/btforge_layout.h,
// generated/btforge_device.cuh and every generated/<strategy>_sweep.cu,
// written into a source file of the build tree by
// cmake/EmbedGeneratedSources.cmake. NVRTC gets the two headers through
// nvrtcCreateProgram's headers/includeNames (the names the sources #include),
// so a JIT build reads no file at run time and always compiles the code this
// binary was built from.
struct EmbeddedText {
    const char* name;  // "btforge_device.cuh", "sma_cross_sweep.cu"
    const char* text;
};

namespace detail {
// Defined by the generated source (Note [Embedded generated sources]).
std::span<const EmbeddedText> embedded_generated_headers();
std::span<const EmbeddedText> embedded_generated_kernels();  // in the order of BTFORGE_STRATEGY_NAMES
}  // namespace detail

// What NVRTC compiles for one strategy.
struct JitSource {
    std::string name;                                          // "sma_cross_sweep.cu"
    std::string text;
    std::vector<std::pair<std::string, std::string>> headers;  // include name -> text
    std::string entry_point;                                   // "btforge_sma_cross_sweep" (extern "C")
};

// The embedded sources of `strategy`; throws std::runtime_error naming the
// strategies this binary has when it has none for it.
JitSource embedded_jit_source(std::string_view strategy);
bool has_embedded_jit_source(std::string_view strategy);

// A parameter with a single value in the sweep, folded into the kernel as
// BTFORGE_FIXED_<name> (Note [Folded parameters] in generated/*_sweep.cu).
struct FixedParameter {
    std::string name;
    bool integral = false;  // int and bool parameters: an integer literal
    double value = 0.0;
};

// The parameters of `space` whose digit has radix 1, in spec order.
std::vector<FixedParameter> fixed_parameters(const StrategySpec& spec, const CombinationSpace& space);

// Note [Exact constants]
// A folded double must be the very value the decode table would have held,
// so it is written as a hexadecimal floating literal ("0x1.8p+1" for 3.0),
// which the compiler reads back bit for bit with no decimal rounding.
// Negative values are parenthesized ("(-0x1p+0)") so the macro expands to
// one operand anywhere. Throws std::invalid_argument for NaN and infinities,
// which have no literal.
std::string exact_double_literal(double value);
// The literal of a FixedParameter: "12" or "(-3)" for integral ones (throws
// std::invalid_argument when the value is not an integer), else as above.
std::string fixed_parameter_literal(const FixedParameter& parameter);

// Note [offsetof under NVRTC]
// generated/btforge_layout.h checks the host/device layout with
// static_assert(__builtin_offsetof(T, m) == ...). NVRTC's front end is not in
// GNU mode and does not know __builtin_offsetof ("type name is not allowed"),
// and the classic ((size_t)&((T*)0)->m) is not a constant expression there;
// its own offsetof builtin, __INTADDR__, is. So the JIT build defines
// __builtin_offsetof in terms of it, keeping the layout checks on.
inline constexpr std::string_view kNvrtcOffsetofOption = "-D__builtin_offsetof(T,m)=__INTADDR__(&(((T*)0)->m))";

// The NVRTC options of a build: the exact architecture (sm_XY for a CUBIN,
// compute_XY when only PTX can be had), --fmad=false (Note [Floating-point
// contract]), -std=c++17 like the nvcc build, kNvrtcOffsetofOption, then one
// -DBTFORGE_FIXED_<name>=<literal> per fixed parameter, sorted by name so
// the cache key does not depend on the caller's order.
std::vector<std::string> jit_compile_options(int compute_major, int compute_minor, bool cubin,
                                             std::vector<FixedParameter> fixed);

}  // namespace btforge::cuda
