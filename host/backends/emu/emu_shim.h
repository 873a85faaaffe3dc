#pragma once

// Note [Emu shim]
// CI machines have no GPU, yet what must be tested there is the code that
// runs on the GPU: generated/, not only the reference it was generated from.
// A generator bug (a dropped statement, a wrong parameter index, a series
// offset off by one) is invisible to a test of the reference alone. So the
// generated kernels are also compiled as plain host C++, with the same
// -ffp-contract=off as the reference (Note [Floating-point contract]), and
// the parity harness compares them with the reference bit for bit.
//
// This header supplies exactly what the generated sources take from CUDA:
// the qualifier macros (empty on the host), btforge_quiet_nan() /
// btforge_infinity() (btforge_device.cuh defines them only under CUDA, i.e.
// #ifndef BTFORGE_DEVICE), the math functions the device rewrites leave
// unqualified (Note [Device rewrites]: CUDA's sqrt, fabs, ... have the IEEE
// semantics of std::'s), btforge_countr_zero(), and the launch coordinates.
// Those are thread_local so several host threads can each run whole blocks at
// once; emu_launch() sets
// them before every simulated CUDA thread. Include it only before the
// generated sources, in emu_kernels.cpp and emu_variant_kernels.cpp (and in
// the portable math parity driver, parity-tests/math/): nothing else sees
// these names.

#include <atomic>
#include <barrier>
#include <bit>
#include <cmath>
#include <limits>

#define BTFORGE_DEVICE
#define BTFORGE_GLOBAL
#define __launch_bounds__(...)

inline double btforge_quiet_nan() { return std::numeric_limits<double>::quiet_NaN(); }
inline double btforge_infinity() { return std::numeric_limits<double>::infinity(); }
inline int btforge_countr_zero(unsigned x) { return std::countr_zero(x); }

namespace btforge::device {

// The allow-list of SPEC §2 (reference/kernel_marker.h), found by unqualified
// lookup from the generated functions, which live in this namespace.
using std::ceil;
using std::fabs;
using std::floor;
using std::fmax;
using std::fmin;
using std::isnan;
using std::round;
using std::sqrt;

}  // namespace btforge::device

struct BtforgeEmuDim3 {
    unsigned x, y, z;
};

inline thread_local BtforgeEmuDim3 threadIdx{0, 0, 0};
inline thread_local BtforgeEmuDim3 blockIdx{0, 0, 0};
inline thread_local BtforgeEmuDim3 blockDim{1, 1, 1};
inline thread_local BtforgeEmuDim3 gridDim{1, 1, 1};

// Note [Emu blocks that cooperate]
// A kernel that shares memory inside a block (the breadth kernel of
// indicator_series.cu) runs under emu_launch_cooperative: every simulated
// thread of a block is a real host thread, __syncthreads() is a std::barrier,
// a __shared__ variable is a function-local static (one per kernel: only one
// cooperative launch runs at a time, emu_launch_cooperative holds a lock), and
// atomicAdd is a real atomic. Kernels without these run one thread after the
// other as before.
#define __shared__ static
inline thread_local std::barrier<>* btforge_emu_block_barrier = nullptr;
inline void __syncthreads() {
    if (btforge_emu_block_barrier != nullptr) btforge_emu_block_barrier->arrive_and_wait();
}
inline int atomicAdd(int* address, int value) { return std::atomic_ref<int>(*address).fetch_add(value); }
