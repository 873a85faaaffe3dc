#pragma once

#include <cstdint>

#include "host/spec/grid.h"
#include "host/spec/strategy_spec.h"

namespace btforge::parity {

// Note [Parity grid]
// The combinations a parity run compares: a grid drawn from the spec alone
// (so a new strategy needs no hand-written parity grid), sampled at random.
// Each parameter gets its default plus values drawn inside its [min, max],
// most near the default (where the strategy trades) and some anywhere in
// the range (where it may not: huge periods, zero distances); integral for
// int, both 0 and 1 for bool. Series parameters keep 2..4 values so the
// indicator series stay few; the other parameters grow until the space holds
// at least 4x the requested combinations, which are then drawn with
// RandomSampling (Note [Random combinations without materializing]): ids
// are scattered over the whole space, every digit of the mixed radix moves.
// The grid depends only on the spec, the seed and the count.
Grid make_parity_grid(const StrategySpec& spec, std::uint64_t seed, std::uint64_t combinations);

}  // namespace btforge::parity
