#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "generated/btforge_layout.h"
#include "host/engine/cpu_sweep.h"
#include "reference/metrics/metrics.h"

namespace btforge {

// Note [Launch tables]
// The host side of device::SweepLaunch (generated/btforge_layout.h): the
// arrays a generated sweep kernel decodes its combination from, built once
// per sweep job in host memory. The emu backend points a launch straight at
// them; a device backend copies each array once and points at the copies.
//   radix/stride/value_offset: one entry per parameter in SPEC order (the
//     generated decode indexes them by spec position), taken from the
//     CombinationSpace digits, which are most significant first.
//   values: every parameter's grid values, parameter after parameter.
//   series: SeriesCache::data(), every indicator series in one buffer.
//   series_table[u]: where use u's entries start in series_offset; entry
//     series_table[u] + k is the start of the series of local index k, k
//     being the mixed radix (first argument most significant) of the digits
//     of the parameters the use takes, as the generated kernel computes it
//     (local_series_index in generator/sweep_kernel_emitter.cpp).
//   market: the whole market, as the indicators read it; launch() narrows it
//     to `window` (Note [Market windows]), and series_offset already points
//     at the window's first bar of each series.
// Only combination_ids, count and rows change from launch to launch.
struct LaunchTables {
    device::MarketView market;
    MarketWindow window;
    device::AccountConfig account;
    std::vector<unsigned long long> radix;
    std::vector<unsigned long long> stride;
    std::vector<int> value_offset;
    std::vector<double> values;
    const double* series = nullptr;
    std::vector<long long> series_offset;
    std::vector<int> series_table;

    // A launch over `ids` (host memory) writing one row per id into `rows`,
    // account.n_periods period statistics per id into `periods` and
    // account.equity_marks equity marks per id into `marks` (each null when
    // the job asks for none).
    device::SweepLaunch launch(std::span<const unsigned long long> ids, device::Metrics* rows,
                               device::PeriodStatistics* periods, double* marks = nullptr) const;
};

// Throws std::invalid_argument when the job has no combination space, and
// std::logic_error (from SeriesCache::offset) when its series cache was not
// built from the space's value lists.
LaunchTables build_launch_tables(const SweepJob& job);

// The layouts are pinned to the reference's bytes (the static_asserts of the
// generated layout header), so conversion is a copy.
device::MarketView to_device(const MarketView& market);
device::AccountConfig to_device(const AccountConfig& account);
Metrics to_host(const device::Metrics& metrics);
// `count` device period statistics into host ones (the same bytes).
void to_host(const device::PeriodStatistics* from, std::size_t count, PeriodStatistics* to);
// The same appended to `to`: no element is written twice, and the pages of a
// reserved vector are first touched here (Note [Period statistics kept as
// they arrive]).
void append_to_host(const device::PeriodStatistics* from, std::size_t count, std::vector<PeriodStatistics>& to);

}  // namespace btforge
