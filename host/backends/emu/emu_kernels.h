#pragma once

#include <span>
#include <string_view>

#include "generated/btforge_layout.h"
#include "host/strategies/strategy_binding.h"

namespace btforge::emu {

// A generated sweep kernel compiled for the host (Note [Emu shim]).
using EmuKernel = void (*)(device::SweepLaunch);

struct EmuKernelEntry {
    std::string_view strategy;
    EmuKernel kernel;
    EmuKernel kernel_with_periods;  // Note [Two kernels per strategy]
    // Note [Kernels for finer bars]: the two for markets with finer bars
    // (the two above where the strategy never reads them).
    EmuKernel kernel_finer;
    EmuKernel kernel_with_periods_finer;
    // Note [Kernels for a mark price]: the two for markets with a mark price.
    EmuKernel kernel_mark;
    EmuKernel kernel_with_periods_mark;
};

// One entry per strategy of generated/btforge_entry_points.h, in its order,
// of the kernel variant so named ("" for the first; empty for an unknown
// name).
std::span<const EmuKernelEntry> emu_kernels(std::string_view variant = "");
// nullptr when generated/ has no kernel for `strategy` in that variant;
// `with_periods`: the kernel that writes period statistics (Note [Two
// kernels per strategy]); `kernels`: the pair for the run's market (Note
// [Kernels for finer bars], Note [Kernels for a mark price]).
EmuKernel find_emu_kernel(std::string_view strategy, bool with_periods = false,
                          SweepKernels kernels = SweepKernels::plain, std::string_view variant = "");

// The indicator kernels of generated/indicator_series.cu compiled for the host.
using EmuIndicatorKernel = void (*)(device::IndicatorLaunch);
struct EmuIndicatorKernels {
    EmuIndicatorKernel gather_own_bars;
    EmuIndicatorKernel indicator_series;
    EmuIndicatorKernel breadth_series;  // cooperates: emu_launch_cooperative only
};
EmuIndicatorKernels emu_indicator_kernels();

// Runs `kernel` as a CUDA launch of `grid` blocks of `block` threads would,
// one simulated thread after the other on the calling thread; several host
// threads may launch at once (the coordinates are thread_local).
void emu_launch(EmuKernel kernel, const device::SweepLaunch& launch, unsigned grid, unsigned block);
void emu_launch(EmuIndicatorKernel kernel, const device::IndicatorLaunch& launch, unsigned grid, unsigned block);

// Runs a kernel whose blocks cooperate (Note [Emu blocks that cooperate]):
// `block` host threads, each one simulated thread of every block in turn,
// blocks in order (x fastest), with a barrier between blocks.
void emu_launch_cooperative(EmuIndicatorKernel kernel, const device::IndicatorLaunch& launch, unsigned grid_x,
                            unsigned grid_y, unsigned block);

}  // namespace btforge::emu
