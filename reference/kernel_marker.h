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
