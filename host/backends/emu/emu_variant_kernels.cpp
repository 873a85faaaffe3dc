// Every generated sweep kernel of one kernel variant (Note [Kernel
// variants]) compiled for the host. The build compiles this file once per
// variant of spec/generator.json, defining BTFORGE_SYMBOL_CAPACITY,
// BTFORGE_KERNEL_SUFFIX and BTFORGE_EMU_VARIANT (its name), so that each
// object holds its variant's kernels under their own names and its device
// code in its own inline namespace (templates/btforge_device.cuh).
#if !defined(BTFORGE_SYMBOL_CAPACITY) || !defined(BTFORGE_EMU_VARIANT)
#error "compiled by the build once per kernel variant (host/backends/CMakeLists.txt)"
#endif
#include "host/backends/emu/emu_shim.h"

// The single variant (Note [Run shape]) folds n_symbols to 1, and GCC then
// follows loops that the run can never enter (xs_momentum's merge of `ranked`
// <= 1 scores) into arrays of one, warning of an index past them and of
// elements never written. Every index of the reference is below n_symbols
// (Note [Symbol capacity]), which CI's parity of this variant proves
// (parity_emu_single_*); the warnings are false, and -Werror would stop the
// build on them.
#if BTFORGE_SYMBOL_CAPACITY == 1 && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <boost/preprocessor/iteration/iterate.hpp>
#include <boost/preprocessor/seq/elem.hpp>
#include <boost/preprocessor/seq/size.hpp>
#include <boost/preprocessor/stringize.hpp>

#include "generated/btforge_entry_points.h"

// Note [Every generated kernel, by construction]
// The list of strategies exists once, in generated/btforge_entry_points.h.
// Both the #includes of the generated sources and the kernel table below are
// expanded from it, so a strategy added to or removed from the generator
// config changes this file's compilation without anyone editing it: a kernel
// file that is missing fails the #include, and a table entry without its
// kernel fails to compile. BTFORGE_FOR_EACH_STRATEGY becomes a Boost.PP
// sequence (default)(sma_cross)..., and BOOST_PP_ITERATE includes
// emu_kernel_include.h once per element, which includes "<name>_sweep.cu"
// (found through the generated/ include directory).
#define BTFORGE_EMU_AS_SEQ_ELEMENT(name) (name)
#define BTFORGE_EMU_STRATEGY_SEQ BTFORGE_FOR_EACH_STRATEGY(BTFORGE_EMU_AS_SEQ_ELEMENT)
// The indirection expands the sequence element before ## pastes it.
#define BTFORGE_EMU_KERNEL_FILE(name) BTFORGE_EMU_KERNEL_FILE_I(name)
#define BTFORGE_EMU_KERNEL_FILE_I(name) BOOST_PP_STRINGIZE(name##_sweep.cu)

#define BOOST_PP_ITERATION_LIMITS (0, BOOST_PP_SEQ_SIZE(BTFORGE_EMU_STRATEGY_SEQ) - 1)
#define BOOST_PP_FILENAME_1 "host/backends/emu/emu_kernel_include.h"
#include BOOST_PP_ITERATE()

#include "host/backends/emu/emu_kernels.h"

namespace btforge::emu::detail {

namespace {

#define BTFORGE_EMU_KERNEL_ENTRY(name)                                                        \
    EmuKernelEntry{#name, &BTFORGE_KERNEL_NAME(btforge_##name##_sweep),                       \
                   &BTFORGE_KERNEL_NAME(btforge_##name##_sweep_periods), BTFORGE_FINER_KERNELS_##name, \
                   BTFORGE_MARK_KERNELS_##name},
constexpr EmuKernelEntry kEmuKernels[] = {BTFORGE_FOR_EACH_STRATEGY(BTFORGE_EMU_KERNEL_ENTRY)};
#undef BTFORGE_EMU_KERNEL_ENTRY

}  // namespace

std::span<const EmuKernelEntry> BTFORGE_PASTE(emu_kernels_, BTFORGE_EMU_VARIANT)() { return kEmuKernels; }

}  // namespace btforge::emu::detail
