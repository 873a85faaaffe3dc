#pragma once

#include <vector>

#include "host/data/market.h"
#include "host/engine/series_cache.h"

namespace btforge {

// Every series of `plan` computed by the generated indicator kernels
// compiled for the host (Note [Emu shim]), launched as the CUDA backend
// launches them (Note [Indicator launches]): the series of plan.keys(), one
// after the other, laid out as SeriesCache::build lays them out. `threads`
// host threads run the series jobs.
std::vector<double> emu_compute_series(const SeriesCache& plan, const Market& market, int threads);

}  // namespace btforge
