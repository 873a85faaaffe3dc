#pragma once

#include <span>
#include <string_view>

#include "generated/btforge_layout.h"

namespace btforge::emu {

// A generated sweep kernel compiled for the host (Note [Emu shim]).
using EmuKernel = void (*)(device::SweepLaunch);

struct EmuKernelEntry {
    std::string_view strategy;
    EmuKernel kernel;
};

// One entry per strategy of generated/btforge_entry_points.h, in its order.
std::span<const EmuKernelEntry> emu_kernels();
// nullptr when generated/ has no kernel for `strategy`.
EmuKernel find_emu_kernel(std::string_view strategy);

// Runs `kernel` as a CUDA launch of `grid` blocks of `block` threads would,
// one simulated thread after the other on the calling thread; several host
// threads may launch at once (the coordinates are thread_local).
void emu_launch(EmuKernel kernel, const device::SweepLaunch& launch, unsigned grid, unsigned block);

}  // namespace btforge::emu
