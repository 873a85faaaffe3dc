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

#include "btforge_layout.h"

namespace btforge::device {

{{entities}}
}  // namespace btforge::device
