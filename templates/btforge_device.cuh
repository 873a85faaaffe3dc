{{stamp}}
// Device functions: every BT_KERNEL function of the reference, in the
// reference's order (callees before callers), with its names, comments and
// statements; only the rewrites of Note [Device rewrites] (generator/
// device_rewriter.h) are applied. Self-contained: no host header, so NVRTC
// compiles it as nvcc does.
#pragma once

#ifndef BTFORGE_DEVICE
#define BTFORGE_DEVICE __device__
#define BTFORGE_GLOBAL __global__
BTFORGE_DEVICE inline double btforge_quiet_nan() { return __longlong_as_double(0x7ff8000000000000LL); }
BTFORGE_DEVICE inline double btforge_infinity() { return __longlong_as_double(0x7ff0000000000000LL); }
BTFORGE_DEVICE inline int btforge_countr_zero(unsigned x) { return __ffs(static_cast<int>(x)) - 1; }
#endif

// Note [Loops kept rolled] (reference/kernel_marker.h): a loop the reference
// marks BT_NO_UNROLL is not unrolled by nvcc or NVRTC; the host-compiled emu
// kernels leave the choice to the host compiler.
#ifndef BTFORGE_NO_UNROLL
#if defined(__CUDA_ARCH__)
#define BTFORGE_NO_UNROLL _Pragma("unroll 1")
#else
#define BTFORGE_NO_UNROLL
#endif
#endif

// Note [Kernel variants] (reference/market/symbol_capacity.h): this code is
// compiled once per variant of spec/generator.json, each defining
// BTFORGE_SYMBOL_CAPACITY (kMaxSymbols) and BTFORGE_KERNEL_SUFFIX (appended
// to the kernels' names: nothing for the first variant, "_<name>" for the
// others); without them it is the first variant, {{first_variant}}. Everything below
// the layout sits in an inline namespace of the capacity, so that the
// host-compiled (emu) variants link side by side.
#ifndef BTFORGE_SYMBOL_CAPACITY
#define BTFORGE_SYMBOL_CAPACITY {{first_capacity}}
#define BTFORGE_KERNEL_SUFFIX
#endif
#define BTFORGE_PASTE_I(a, b) a##b
#define BTFORGE_PASTE(a, b) BTFORGE_PASTE_I(a, b)
// btforge_<strategy>_sweep<suffix>: the entry point of this variant.
#define BTFORGE_KERNEL_NAME(name) BTFORGE_PASTE(name, BTFORGE_KERNEL_SUFFIX)

#include "btforge_layout.h"

namespace btforge::device {
inline namespace BTFORGE_PASTE(symbols, BTFORGE_SYMBOL_CAPACITY) {

// Note [Series pointers kept whole]
// A sweep kernel decodes each indicator series it reads as `series +
// series_offset[...]`. Left alone, nvcc keeps the base and the 64-bit offset
// apart and rebuilds the address of every load of the bar loop from both
// (two 64-bit additions and a shift, four instructions); a whole pointer
// needs one (IMAD.WIDE). The empty asm hides the arithmetic so the pointer
// is formed once, and the assumption that it points to global memory keeps
// the loads LDG (docs/PERFORMANCE.md, "Series pointers kept whole"). It
// returns its argument: results do not change.
BTFORGE_DEVICE inline const double* btforge_series_pointer(const double* p) {
#if defined(__CUDA_ARCH__)
    const double* whole;
    asm("mov.b64 %0, %1;" : "=l"(whole) : "l"(p));
    __builtin_assume(__isGlobal(whole));
    return whole;
#else
    return p;
#endif
}

{{entities}}
// Note [Run shape]
// What a launch already knows of its run, made a compile-time constant so
// that the compiler drops what the run cannot use. The single variant
// (BTFORGE_SYMBOL_CAPACITY 1) runs markets of one symbol only: the host
// chooses a variant by the market's size (Note [Kernel variants]), and a
// module's entry points carry their variant's suffix, so no launch of a
// larger market can reach this code. There n_symbols is the constant 1:
// every symbol loop of the reference becomes straight code on symbol 0, and
// the per-symbol state (arrays of one) lives in registers, not in local
// memory. A run-time build (--jit, host/cuda/jit_compile.cpp) defines
// BTFORGE_FIXED_funding_free to whether its market settles any funding
// (Note [Markets without funding]), so that a market without funding has no
// funding code at all. Results cannot change: each constant is the value the
// launch carries. Where nothing is folded the launch's own view is passed
// on, not a copy: a copy moved the register allocation of the narrow
// default's period kernel into spills.
#if defined(BTFORGE_FIXED_funding_free) || BTFORGE_SYMBOL_CAPACITY == 1
BTFORGE_DEVICE inline MarketView shaped_market(MarketView market) {
#if BTFORGE_SYMBOL_CAPACITY == 1
    market.n_symbols = 1;
#endif
#if defined(BTFORGE_FIXED_funding_free)
    market.funding_free = BTFORGE_FIXED_funding_free;
#endif
    return market;
}
#else
BTFORGE_DEVICE inline const MarketView& shaped_market(const MarketView& market) { return market; }
#endif

// Note [Kernels for finer bars]
// Finer bars (Note [Finer bars]) cost a strategy that walks them in every
// bar it runs, walked or not: its loop over one bar or its finer bars
// measured 24% slower on the large benchmark than the bar's own steps
// (docs/PERFORMANCE.md, issue 33). So a strategy whose code names
// fine_per_bar (btforge-gen finds it: reads_finer_bars) has two kernels
// more, _finer and _periods_finer, that read the finer bars; its plain and
// _periods kernels see fine_per_bar as the constant 0, and the compiler
// drops the walk. The host launches the _finer ones for a market that has
// finer bars, and only then. A strategy that never reads them has no
// _finer kernels: its two serve every run (BTFORGE_FINER_KERNELS_<name>
// names them for the emu's table). Folding takes a copy of the view, which
// costs the narrow default's _periods kernel 20 bytes of spills (Note [Run
// shape]); without the copy the walk stayed, at 52.
BTFORGE_DEVICE inline MarketView without_finer_bars(const MarketView& launch_market) {
    MarketView market = shaped_market(launch_market);
    market.fine_per_bar = 0;
    market.mark_open = nullptr;  // Note [Kernels for a mark price]
    market.mark_high = nullptr;
    market.mark_low = nullptr;
    return market;
}

// Note [Kernels for a mark price]
// A mark price (Note [Mark price]) is read by the liquidation every
// strategy shares, at every bar a position is held. Tested at run time in
// the kernels of every run, it cost runs without a mark 4-11% on one H200
// (docs/PERFORMANCE.md, issue 33). So the plain and _periods kernels see
// the mark as the constant null (a copy of the view, without_finer_bars
// or without_mark_price), and every strategy has two kernels more, _mark
// and _periods_mark, that read it; the host launches those for a market
// with a mark, and only then. A market with a mark has no finer bars (the
// host refuses both), so they see fine_per_bar as the constant 0 and the
// _finer ones see the mark as null.
BTFORGE_DEVICE inline MarketView without_mark_price(const MarketView& launch_market) {
    MarketView market = shaped_market(launch_market);
    market.mark_open = nullptr;
    market.mark_high = nullptr;
    market.mark_low = nullptr;
    return market;
}

BTFORGE_DEVICE inline MarketView with_mark_price(const MarketView& launch_market) {
    MarketView market = shaped_market(launch_market);
    market.fine_per_bar = 0;
    market.fine_legs = 0;
    return market;
}

// The _finer kernels walk the finer bars of the data only: the legs of a
// bar (Note [A bar as three legs]) run on the CPU reference, whose replays
// are the only runs that ask for them (the host never launches a view with
// them), so fine_legs is the constant 0 here and the legs' code is dropped.
// Nor does a market with finer bars have a mark price (Note [Mark price]:
// the host refuses both), so the mark is the constant null here too: its
// code cost the narrow default's _finer kernel 48 bytes of spills on sm_80.
BTFORGE_DEVICE inline MarketView with_finer_bars_of_data(const MarketView& launch_market) {
    MarketView market = shaped_market(launch_market);
    market.fine_legs = 0;
    market.mark_open = nullptr;
    market.mark_high = nullptr;
    market.mark_low = nullptr;
    return market;
}

}  // inline namespace symbols<capacity>
}  // namespace btforge::device
