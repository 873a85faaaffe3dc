// The CSCV scans on the device: Note [CSCV scan on the device] in
// backtest_overfitting.h, whose phases these kernels run with a barrier
// between the load of a tile and its scan.
#include "host/cuda/kernels/backtest_overfitting.h"

namespace btforge::device {

extern "C" __global__ void __launch_bounds__(kCscvThreads) btforge_cscv_winners(const CscvScanLaunch launch) {
    __shared__ CscvScanShared shared;
    const unsigned t = threadIdx.x;
    const unsigned split = blockIdx.x * kCscvThreads + t;
    const unsigned long long begin = cscv_chunk_begin(launch, blockIdx.y);
    const unsigned long long end = cscv_chunk_end(launch, blockIdx.y);
    CscvBest best = cscv_no_winner();
    for (unsigned long long first = begin; first < end; first += kCscvTile) {
        const unsigned long long last = first + kCscvTile < end ? first + kCscvTile : end;
        __syncthreads();  // the previous tile is scanned
        cscv_load_tile(launch, shared, first, last, t);
        __syncthreads();
        if (split < launch.splits) cscv_scan_winners(launch, shared, first, last, split, best);
    }
    if (split < launch.splits) launch.best[static_cast<unsigned long long>(blockIdx.y) * launch.splits + split] = best;
}

extern "C" __global__ void __launch_bounds__(kCscvThreads) btforge_cscv_ranks(const CscvScanLaunch launch) {
    __shared__ CscvScanShared shared;
    const unsigned t = threadIdx.x;
    const unsigned split = blockIdx.x * kCscvThreads + t;
    const unsigned long long begin = cscv_chunk_begin(launch, blockIdx.y);
    const unsigned long long end = cscv_chunk_end(launch, blockIdx.y);
    CscvCount count{0, 0};
    for (unsigned long long first = begin; first < end; first += kCscvTile) {
        const unsigned long long last = first + kCscvTile < end ? first + kCscvTile : end;
        __syncthreads();
        cscv_load_tile(launch, shared, first, last, t);
        __syncthreads();
        if (split < launch.splits) cscv_scan_ranks(launch, shared, first, last, split, count);
    }
    if (split < launch.splits) launch.counts[static_cast<unsigned long long>(blockIdx.y) * launch.splits + split] = count;
}

}  // namespace btforge::device
