#pragma once

#include <string>

#include "generator/kernel_model.h"

namespace btforge::gen {

// Note [Device rewrites]
// Generated code is the reference's own text, token by token, with exactly
// these changes so that nvcc and NVRTC compile it without a host header:
//   BT_KERNEL on a function        -> BTFORGE_DEVICE (__device__, or nothing on the host)
//   BT_KERNEL on anything else     -> removed
//   BT_COLD on a field             -> BTFORGE_COLD right before the field's name (`volatile` in
//                                     device code, Note [Cold fields]): `BT_COLD const double* atr`
//                                     -> `const double* BTFORGE_COLD atr`, a volatile pointer
//   BT_NO_UNROLL before a loop     -> BTFORGE_NO_UNROLL (`#pragma unroll 1` in device code,
//                                     Note [Loops kept rolled])
//   std::sqrt, std::fabs, ...      -> sqrt, fabs, ... (CUDA's functions of identical IEEE semantics)
//   std::int64_t, std::uint8_t, std::size_t ... -> long long, unsigned char, unsigned long, ...
//   std::numeric_limits<double>::quiet_NaN() / infinity() -> btforge_quiet_nan() / btforge_infinity()
//   std::countr_zero(x)            -> btforge_countr_zero(x) (__ffs(x) - 1 on the device; x is never 0
//                                     there: the reference calls it on nonzero words only)
// Whitespace and comments between tokens are copied unchanged, so a reviewer
// reads the generated function against the reference line by line.
std::string rewrite_for_device(const Entity& entity);

}  // namespace btforge::gen
