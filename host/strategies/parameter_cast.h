#pragma once

namespace btforge {

// Parameter values travel as doubles (grids, decoding, reports); the spec
// validated that int and bool values are integral, so the cast is exact.
inline int int_param(double value) { return static_cast<int>(value); }

}  // namespace btforge
