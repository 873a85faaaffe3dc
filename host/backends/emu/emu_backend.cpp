#include "host/backends/emu/emu_backend.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "host/backends/emu/emu_indicators.h"
#include "host/backends/emu/emu_kernels.h"
#include "host/backends/kernel_variant.h"
#include "host/backends/launch_tables.h"
#include "host/engine/account_config.h"
#include "host/strategies/strategy_binding.h"

namespace btforge {

namespace {

// The block size of the generated kernels' __launch_bounds__ (spec/
// generator.json), so a launch here has the shape a CUDA launch would.
constexpr unsigned kBlockSize = 128;
// Ordinals per launch: a few blocks, so the shared counter is not contended
// and progress and cancellation stay responsive.
constexpr std::uint64_t kChunk = 4 * kBlockSize;

}  // namespace

bool emu_supports(const std::string& strategy) { return emu::find_emu_kernel(strategy) != nullptr; }

SweepOutcome run_emu_sweep(const SweepJob& job, const SweepOptions& options, std::string_view kernel_variant) {
    if (job.bar_legs != 0) {  // Note [A bar as three legs]: the kernels fold them away
        throw std::invalid_argument("an emu sweep runs the market's own bars; the legs of a bar run on the CPU");
    }
    // Note [Kernel variants]
    const KernelVariant& variant = choose_kernel_variant(job.market->n_symbols(), kernel_variant);
    emu::EmuKernel kernel = emu::find_emu_kernel(job.spec->name, keeps_period_outputs(job.account),
                                                 sweep_kernels_of(*job.binding, job.market->view()), variant.name);
    if (kernel == nullptr) {
        std::string known;
        for (const emu::EmuKernelEntry& e : emu::emu_kernels()) known += (known.empty() ? "" : ", ") + std::string(e.strategy);
        throw std::runtime_error("generated/ has no sweep kernel for strategy '" + job.spec->name +
                                 "' (generated: " + known + "): " + missing_strategy_hint(job.spec->name));
    }
    LaunchTables tables = build_launch_tables(job);
    std::vector<double> own_series;
    if (!job.series->computed()) {
        own_series = emu_compute_series(*job.series, *job.market, options.threads);
        tables.series = own_series.data();
    }

    SweepOutcome outcome = run_sweep_in_blocks(job, options, kChunk,
                               [&job, &tables, kernel](std::uint64_t begin, std::uint64_t end, ResultRow* out,
                                                       PeriodStatistics* periods, double* marks) {
        std::size_t count = static_cast<std::size_t>(end - begin);
        const std::size_t n_periods = periods != nullptr ? static_cast<std::size_t>(job.account.n_periods) : 0;
        std::vector<unsigned long long> ids(count);
        std::vector<device::Metrics> rows(count);
        std::vector<device::PeriodStatistics> device_periods(count * n_periods);
        for (std::size_t i = 0; i < count; ++i) ids[i] = job.space->combination_id(begin + i);
        // Written in place: a double is the same on both sides of the layout.
        device::SweepLaunch launch = tables.launch(std::span(ids.data(), count), rows.data(),
                                                   n_periods != 0 ? device_periods.data() : nullptr, marks);
        unsigned grid = static_cast<unsigned>((count + kBlockSize - 1) / kBlockSize);
        emu::emu_launch(kernel, launch, grid, kBlockSize);
        for (std::size_t i = 0; i < count; ++i) out[i] = ResultRow{ids[i], to_host(rows[i])};
        to_host(device_periods.data(), device_periods.size(), periods);
    });
    outcome.kernel_variant = describe_kernel_variant(variant);
    return outcome;
}

}  // namespace btforge
