// The indicator kernels of generated/ compiled for the host (Note [Emu
// shim]), and the sweep kernels' tables of every variant, which
// emu_variant_kernels.cpp compiles.
#include "host/backends/emu/emu_shim.h"

#include "generated/btforge_entry_points.h"

#include "indicator_series.cu"

#include <latch>
#include <mutex>
#include <thread>
#include <vector>

#include "host/backends/emu/emu_kernels.h"

namespace btforge::emu {

namespace detail {
#define BTFORGE_EMU_VARIANT_TABLE(name, max_symbols, suffix) std::span<const EmuKernelEntry> emu_kernels_##name();
BTFORGE_FOR_EACH_KERNEL_VARIANT(BTFORGE_EMU_VARIANT_TABLE)
#undef BTFORGE_EMU_VARIANT_TABLE
}  // namespace detail

namespace {

struct EmuVariantTable {
    std::string_view variant;
    std::span<const EmuKernelEntry> (*kernels)();
};
#define BTFORGE_EMU_VARIANT_ENTRY(name, max_symbols, suffix) EmuVariantTable{#name, &detail::emu_kernels_##name},
constexpr EmuVariantTable kVariantTables[] = {BTFORGE_FOR_EACH_KERNEL_VARIANT(BTFORGE_EMU_VARIANT_ENTRY)};
#undef BTFORGE_EMU_VARIANT_ENTRY

}  // namespace

std::span<const EmuKernelEntry> emu_kernels(std::string_view variant) {
    for (const EmuVariantTable& table : kVariantTables) {
        if (variant.empty() || table.variant == variant) return table.kernels();
    }
    return {};
}

EmuKernel find_emu_kernel(std::string_view strategy, bool with_periods, SweepKernels kernels,
                          std::string_view variant) {
    for (const EmuKernelEntry& entry : emu_kernels(variant)) {
        if (entry.strategy != strategy) continue;
        if (kernels == SweepKernels::finer) return with_periods ? entry.kernel_with_periods_finer : entry.kernel_finer;
        if (kernels == SweepKernels::mark) return with_periods ? entry.kernel_with_periods_mark : entry.kernel_mark;
        return with_periods ? entry.kernel_with_periods : entry.kernel;
    }
    return nullptr;
}

namespace {

template <typename Launch>
void run_blocks(void (*kernel)(Launch), const Launch& launch, unsigned grid, unsigned block) {
    gridDim = {grid, 1, 1};
    blockDim = {block, 1, 1};
    for (unsigned b = 0; b < grid; ++b) {
        blockIdx = {b, 0, 0};
        for (unsigned t = 0; t < block; ++t) {
            threadIdx = {t, 0, 0};
            kernel(launch);
        }
    }
}

}  // namespace

void emu_launch(EmuKernel kernel, const device::SweepLaunch& launch, unsigned grid, unsigned block) {
    run_blocks(kernel, launch, grid, block);
}

void emu_launch(EmuIndicatorKernel kernel, const device::IndicatorLaunch& launch, unsigned grid, unsigned block) {
    run_blocks(kernel, launch, grid, block);
}

EmuIndicatorKernels emu_indicator_kernels() {
    return EmuIndicatorKernels{&btforge_gather_own_bars, &btforge_indicator_series, &btforge_breadth_series};
}

void emu_launch_cooperative(EmuIndicatorKernel kernel, const device::IndicatorLaunch& launch, unsigned grid_x,
                            unsigned grid_y, unsigned block) {
    static std::mutex one_at_a_time;
    std::lock_guard lock(one_at_a_time);
    std::barrier<> barrier(static_cast<std::ptrdiff_t>(block));
    // Every thread waits until all exist: one that could not be created
    // would leave the others waiting at the barrier forever.
    std::latch all_created(1);
    bool abandoned = false;
    auto simulated_thread = [&](unsigned t) {
        all_created.wait();
        if (abandoned) return;
        btforge_emu_block_barrier = &barrier;
        gridDim = {grid_x, grid_y, 1};
        blockDim = {block, 1, 1};
        threadIdx = {t, 0, 0};
        for (unsigned y = 0; y < grid_y; ++y) {
            for (unsigned x = 0; x < grid_x; ++x) {
                blockIdx = {x, y, 0};
                kernel(launch);
                // The next block reuses the __shared__ statics.
                barrier.arrive_and_wait();
            }
        }
        btforge_emu_block_barrier = nullptr;
    };
    std::vector<std::thread> threads;
    threads.reserve(block);
    try {
        for (unsigned t = 0; t < block; ++t) threads.emplace_back(simulated_thread, t);
    } catch (...) {
        abandoned = true;
        all_created.count_down();
        for (std::thread& thread : threads) thread.join();
        throw;
    }
    all_created.count_down();
    for (std::thread& thread : threads) thread.join();
}

}  // namespace btforge::emu
