#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "generated/btforge_layout.h"
#include "host/data/market.h"
#include "host/engine/series_cache.h"

namespace btforge {

// Note [Indicator jobs]
// The host side of device::IndicatorLaunch (Note [Indicator launches] in
// generated/btforge_layout.h), built from a SeriesCache plan:
//   - one series job per (distinct series, symbol), writing that symbol's
//     row of the series: the plan's series k starts at k * series_length;
//   - a BREADTH series becomes one EMA job per symbol into a slot of its own
//     after the plan's series, then one breadth job reading those rows;
//   - the symbols' own bars, flattened.
// A job's kind is the position of its indicator in BTFORGE_FOR_EACH_INDICATOR
// (generated/btforge_entry_points.h): generated/ and this binary's catalog
// are checked to agree by name.
struct IndicatorJobs {
    int n_symbols = 0;
    int n_bars = 0;
    std::vector<int> own_bars;
    std::vector<int> own_begin;  // [n_symbols + 1]
    std::vector<device::IndicatorJob> jobs;
    std::vector<device::BreadthJob> breadth;
    std::size_t series_length = 0;    // n_symbols * n_bars
    std::size_t distinct_series = 0;  // the plan's; they come first in the buffer
    std::size_t series_slots = 0;     // distinct_series + one EMA slot per BREADTH series

    // Threads of the gather launch: one per (symbol, price array, chunk of
    // kGatherChunk own bars).
    std::size_t gather_threads() const;
    // Doubles of scratch one job needs (kIndicatorMaxOutputs rows of n_bars).
    std::size_t scratch_per_job() const;
    // [begin, end) runs of jobs whose scratch fits `max_scratch_bytes` (at
    // least one job each).
    std::vector<std::pair<std::size_t, std::size_t>> batches(std::size_t max_scratch_bytes) const;
};

// Throws std::logic_error when generated/ has no kernel for an indicator of
// the plan, std::invalid_argument when the market has no own_bars.
IndicatorJobs plan_indicator_jobs(const SeriesCache& plan, const Market& market);

// The kind number of `indicator` in generated/, or -1 (BREADTH, unknown).
int indicator_kind(std::string_view indicator);

}  // namespace btforge
