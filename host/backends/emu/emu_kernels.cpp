// The one translation unit that compiles generated/ for the host: the shim
// first, then every generated sweep kernel (Note [Emu shim]).
#include "host/backends/emu/emu_shim.h"

#include <boost/preprocessor/iteration/iterate.hpp>
#include <boost/preprocessor/seq/elem.hpp>
#include <boost/preprocessor/seq/size.hpp>
#include <boost/preprocessor/stringize.hpp>

#include "generated/btforge_entry_points.h"

// Note [Every generated kernel, by construction]
// The list of strategies exists once, in generated/btforge_entry_points.h.
// Both the #includes of the generated sources and the kernel table below are
// expanded from it, so a strategy added to or removed from the generator
// config changes this file's compilation without anyone editing it: a kernel
// file that is missing fails the #include, and a table entry without its
// kernel fails to compile. BTFORGE_FOR_EACH_STRATEGY becomes a Boost.PP
// sequence (default)(sma_cross)..., and BOOST_PP_ITERATE includes
// emu_kernel_include.h once per element, which includes "<name>_sweep.cu"
// (found through the generated/ include directory).
#define BTFORGE_EMU_AS_SEQ_ELEMENT(name) (name)
#define BTFORGE_EMU_STRATEGY_SEQ BTFORGE_FOR_EACH_STRATEGY(BTFORGE_EMU_AS_SEQ_ELEMENT)
// The indirection expands the sequence element before ## pastes it.
#define BTFORGE_EMU_KERNEL_FILE(name) BTFORGE_EMU_KERNEL_FILE_I(name)
#define BTFORGE_EMU_KERNEL_FILE_I(name) BOOST_PP_STRINGIZE(name##_sweep.cu)

#define BOOST_PP_ITERATION_LIMITS (0, BOOST_PP_SEQ_SIZE(BTFORGE_EMU_STRATEGY_SEQ) - 1)
#define BOOST_PP_FILENAME_1 "host/backends/emu/emu_kernel_include.h"
#include BOOST_PP_ITERATE()

#include "indicator_series.cu"

#include <latch>
#include <mutex>
#include <thread>
#include <vector>

#include "host/backends/emu/emu_kernels.h"

namespace btforge::emu {

namespace {

#define BTFORGE_EMU_KERNEL_ENTRY(name) EmuKernelEntry{#name, &btforge_##name##_sweep, &btforge_##name##_sweep_periods},
constexpr EmuKernelEntry kEmuKernels[] = {BTFORGE_FOR_EACH_STRATEGY(BTFORGE_EMU_KERNEL_ENTRY)};
#undef BTFORGE_EMU_KERNEL_ENTRY

}  // namespace

std::span<const EmuKernelEntry> emu_kernels() { return kEmuKernels; }

EmuKernel find_emu_kernel(std::string_view strategy, bool with_periods) {
    for (const EmuKernelEntry& entry : kEmuKernels) {
        if (entry.strategy == strategy) return with_periods ? entry.kernel_with_periods : entry.kernel;
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
