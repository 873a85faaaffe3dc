// Host compile of the kx variants (self-contained copy of what
// host/backends/emu/emu_shim.h supplies, plus __shared__ and __trap).
#pragma once
#include <cmath>
#include <limits>
#define BTFORGE_DEVICE
#define BTFORGE_GLOBAL
#define __launch_bounds__(...)
#define __shared__
#define __trap() __builtin_trap()
inline double btforge_quiet_nan() { return std::numeric_limits<double>::quiet_NaN(); }
inline double btforge_infinity() { return std::numeric_limits<double>::infinity(); }
namespace btforge::device {
using std::ceil; using std::fabs; using std::floor; using std::fmax; using std::fmin;
using std::isnan; using std::round; using std::sqrt;
}
struct BtforgeEmuDim3 { unsigned x, y, z; };
inline thread_local BtforgeEmuDim3 threadIdx{0, 0, 0};
inline thread_local BtforgeEmuDim3 blockIdx{0, 0, 0};
inline thread_local BtforgeEmuDim3 blockDim{1, 1, 1};
inline thread_local BtforgeEmuDim3 gridDim{1, 1, 1};
