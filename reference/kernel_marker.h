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
// std::isnan).
#if defined(__clang__)
#define BT_KERNEL [[clang::annotate("btforge::kernel")]]
#else
#define BT_KERNEL
#endif

// Note [Cold fields]
// BT_COLD marks a struct field that the per-bar path of a kernel does not
// read: parameters used only when an order is sized or a trade closes, trade
// statistics, fee and funding totals. It changes nothing in the reference
// (it expands to nothing). In generated code it becomes BTFORGE_COLD, which
// is `volatile` in device code: such a field stays in the thread's local
// memory, read where it is used, instead of holding a register through the
// whole bar loop. Registers are what bounds the number of warps per SM (see
// docs/PERFORMANCE.md, "Cold fields"); a field read on every bar must not be
// marked, as each read would become a load. Only fields may carry it
// (btforge-gen's cold-field rule).
#if defined(__clang__)
#define BT_COLD [[clang::annotate("btforge::cold")]]
#else
#define BT_COLD
#endif
