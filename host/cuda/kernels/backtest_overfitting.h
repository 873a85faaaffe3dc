#pragma once

// The two CSCV scans on the device (Note [CSCV scan] in host/validation/
// cscv_split.h): shared by the kernels (backtest_overfitting.cu, nvcc) and
// the host (backtest_overfitting_device.cpp: the same phases run
// sequentially, which is what the tests run without a GPU).
//
// Note [CSCV scan on the device]
// A thread per split, a block of kCscvThreads splits; blockIdx.y picks a
// chunk of the combinations. The block streams its chunk through shared
// memory in tiles of kCscvTile combinations (every period's sums of a tile:
// at most 16 KiB); every thread reads the same combination at the same time
// (a broadcast, no bank conflict) and evaluates it under its own split's
// mask, so the work per (split, combination) is the CPU's cscv_sharpe with
// no reduction between threads. Each thread writes one partial result per
// chunk, out[chunk * splits + split]; the host merges the chunks by the
// rules of cscv_split.h. The grid has enough chunks to fill the GPU even
// for the 70 splits of S = 8.

#include "host/validation/cscv_split.h"

namespace btforge::device {

inline constexpr unsigned kCscvThreads = 128;
inline constexpr unsigned kCscvTile = 64;
inline constexpr int kCscvMaxPeriods = 16;

// A kernel's only parameter, by value. The winners scan reads in-sample
// masks and writes `best`; the ranks scan reads out-of-sample masks and the
// winners' out-of-sample Sharpe ratios and writes `counts`.
struct CscvScanLaunch {
    const CscvSums* sums;           // [combinations * periods]
    const unsigned* masks;          // [splits]
    const long long* bars;          // [splits]: bars of the masked periods
    const double* thresholds;       // [splits]: the winners' out-of-sample Sharpe (ranks scan)
    CscvBest* best;                 // [chunks * splits] (winners scan)
    CscvCount* counts;              // [chunks * splits] (ranks scan)
    unsigned long long combinations;
    unsigned long long chunk;       // combinations per chunk (the last may have fewer)
    unsigned splits;
    int periods;
};

struct CscvScanShared {
    CscvSums tile[kCscvTile * kCscvMaxPeriods];
};

BTFORGE_CSCV_HD inline unsigned long long cscv_chunk_begin(const CscvScanLaunch& launch, unsigned chunk) {
    const unsigned long long begin = static_cast<unsigned long long>(chunk) * launch.chunk;
    return begin < launch.combinations ? begin : launch.combinations;
}

BTFORGE_CSCV_HD inline unsigned long long cscv_chunk_end(const CscvScanLaunch& launch, unsigned chunk) {
    const unsigned long long end = cscv_chunk_begin(launch, chunk) + launch.chunk;
    return end < launch.combinations ? end : launch.combinations;
}

// Phase 1 of a tile, thread t: copy the sums of combinations [first, end).
BTFORGE_CSCV_HD inline void cscv_load_tile(const CscvScanLaunch& launch, CscvScanShared& s, unsigned long long first,
                                           unsigned long long end, unsigned t) {
    const unsigned values = static_cast<unsigned>(end - first) * static_cast<unsigned>(launch.periods);
    const CscvSums* source = launch.sums + first * static_cast<unsigned long long>(launch.periods);
    for (unsigned v = t; v < values; v += kCscvThreads) s.tile[v] = source[v];
}

// Phase 2 of a tile, the thread of split `split`: offer every combination
// of the tile to its partial winner.
BTFORGE_CSCV_HD inline void cscv_scan_winners(const CscvScanLaunch& launch, const CscvScanShared& s,
                                              unsigned long long first, unsigned long long end, unsigned split,
                                              CscvBest& best) {
    const unsigned mask = launch.masks[split];
    const long long bars = launch.bars[split];
    for (unsigned long long n = first; n < end; ++n) {
        const CscvSums* row = s.tile + static_cast<unsigned>(n - first) * static_cast<unsigned>(launch.periods);
        cscv_offer(best, cscv_sharpe(row, launch.periods, mask, bars), n);
    }
}

// Phase 2 of a tile for the ranks scan: count the tile's combinations below
// and equal to the winner's out-of-sample Sharpe ratio.
BTFORGE_CSCV_HD inline void cscv_scan_ranks(const CscvScanLaunch& launch, const CscvScanShared& s,
                                            unsigned long long first, unsigned long long end, unsigned split,
                                            CscvCount& count) {
    const unsigned mask = launch.masks[split];
    const long long bars = launch.bars[split];
    const double threshold = launch.thresholds[split];
    for (unsigned long long n = first; n < end; ++n) {
        const CscvSums* row = s.tile + static_cast<unsigned>(n - first) * static_cast<unsigned>(launch.periods);
        cscv_count(count, cscv_sharpe(row, launch.periods, mask, bars), threshold);
    }
}

BTFORGE_CSCV_HD inline unsigned cscv_split_blocks(unsigned splits) {
    return (splits + kCscvThreads - 1) / kCscvThreads;
}

}  // namespace btforge::device
