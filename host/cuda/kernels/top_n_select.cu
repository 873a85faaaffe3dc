// The top N of one chunk on the device: Note [Top N on the device] in
// top_n_select.h, whose phases this kernel runs with a barrier between each.
#include "host/cuda/kernels/top_n_select.h"

namespace btforge::device {

extern "C" __global__ void __launch_bounds__(kTopNThreads) btforge_top_n_select(const TopNSelectLaunch launch) {
    __shared__ TopNSelectShared shared;
    const unsigned block = blockIdx.x;
    const unsigned t = threadIdx.x;
    top_n_load(launch, shared, block, t);
    __syncthreads();
    // Note [Distinct outcomes on the device]: by outcome, then by rank.
    for (int pass = 0; pass < 2; ++pass) {
        const bool by_outcome = pass == 0;
        for (unsigned k = 2; k <= kTopNTile; k *= 2) {
            for (unsigned j = k / 2; j > 0; j /= 2) {
                top_n_sort_step(shared, k, j, t, by_outcome);
                __syncthreads();
            }
        }
        if (by_outcome) {
            top_n_mark_duplicates(shared, t);
            __syncthreads();
            top_n_demote_duplicates(shared, t);
            __syncthreads();
        }
    }
    top_n_write(launch, shared, block, t);
}

}  // namespace btforge::device
