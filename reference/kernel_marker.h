#pragma once

// Note [The kernel marker]
// Every function and struct of the reference that will run on the GPU carries
// BT_KERNEL. Under clang (which is what btforge-gen parses the reference with)
// it expands to an annotation the generator collects together with the call
// graph; under any other compiler it expands to nothing, so the reference is
// plain C++. Marked code keeps to the device subset of SPEC §2: POD structs,
// fixed-size arrays, no heap, no exceptions, no virtual, no recursion, no I/O,
// and calls only other marked functions or the allowed math (std::sqrt,
// std::fabs, std::round, std::floor, std::ceil, std::fmin, std::fmax,
// std::isnan, and std::countr_zero on a nonzero word). Transcendentals are
// the reference's own marked functions, btforge::portable_exp,
// portable_expm1, portable_log, portable_pow and portable_tanh
// (Note [Portable transcendentals], reference/math/): the C library's
// std::exp and kin are refused by btforge-gen's `transcendental` rule,
// because glibc and CUDA round them differently.
#if defined(__clang__)
#define BT_KERNEL [[clang::annotate("btforge::kernel")]]
#else
#define BT_KERNEL
#endif

// Note [Cold fields]
// BT_COLD marks a struct field that should not hold a register through a
// kernel's whole bar loop: above all what the per-bar path does not read
// (parameters used only once a signal fired, when an order is sized or a
// trade closes; trade statistics; fee and funding totals). It changes
// nothing in the reference (it expands to nothing). In generated code it
// becomes BTFORGE_COLD, which is `volatile` in device code: the field stays
// in the thread's local memory and is loaded where it is used. Registers
// bound the warps per SM, and a load costs latency, so what to mark is
// measured (docs/PERFORMANCE.md, "Cold fields"): the fields above took the
// default kernel from 4 to 5 blocks per SM; a few read on some bars only
// (the trailing and holding limits of open positions, the exposure and
// downside sums) took it to 6, 1.8% faster. A field that every combination
// reads on every bar must not be marked: since Note [Signals that cannot
// fire] the mean-reversion combinations read the bands on every bar and the
// RSI and ADX only where a signal may fire, so those two are cold and the
// bands are not. Only fields may carry it (btforge-gen's cold-field rule).
// Being volatile, a cold field given as an argument is loaded at the call,
// even where the callee returns before using it: pass it to a shared rule
// only inside the branch that needs it. The shared target and trailing-stop
// rules, called with tp1_frac and trail_activate_atr on every bar in a
// position, measured the default kernel's single variant 7.4% slower
// (docs/PERFORMANCE.md, issue 31).
#if defined(__clang__)
#define BT_COLD [[clang::annotate("btforge::cold")]]
#else
#define BT_COLD
#endif

// Note [Loops kept rolled]
// BT_NO_UNROLL before a loop asks the compiler not to unroll it. Unrolling
// lets the GPU issue the loads of several iterations together, but it also
// keeps their values in registers at once and makes the kernel longer; where
// that was measured to lose (docs/PERFORMANCE.md, "Busy symbols"), the loop
// carries this marker. It never changes a result. btforge-gen rewrites it
// into BTFORGE_NO_UNROLL, `#pragma unroll 1` in device code.
#if defined(__clang__)
#define BT_NO_UNROLL _Pragma("nounroll")
#elif defined(__GNUC__)
#define BT_NO_UNROLL _Pragma("GCC unroll 1")
#else
#define BT_NO_UNROLL
#endif
