// The SPA's bootstrap passes on the device: Note [Bootstrap maxima on the
// device] in bootstrap_maxima.h, whose phases this kernel runs with a
// barrier between the load of a tile and its scan.
#include "host/cuda/kernels/bootstrap_maxima.h"

namespace btforge::device {

extern "C" __global__ void __launch_bounds__(kSpaThreads) btforge_spa_maxima(const SpaScanLaunch launch) {
    extern __shared__ double tile[];
    const unsigned t = threadIdx.x;
    const int b = static_cast<int>(blockIdx.x * kSpaThreads + t);
    const unsigned long long begin = spa_chunk_begin(launch, blockIdx.y);
    const unsigned long long end = spa_chunk_end(launch, blockIdx.y);
    double best[kSpaMaxCenters];
    for (int v = 0; v < kSpaMaxCenters; ++v) best[v] = spa_minus_infinity();
    for (unsigned long long first = begin; first < end; first += launch.tile) {
        const unsigned long long last = first + launch.tile < end ? first + launch.tile : end;
        __syncthreads();  // the previous tile is scanned
        spa_load_tile(launch, tile, first, last, t);
        __syncthreads();
        if (b < launch.resamples) spa_scan_tile(launch, tile, first, last, b, best);
    }
    if (b < launch.resamples) {
        for (int v = 0; v < launch.centers; ++v) {
            launch.maxima[(static_cast<unsigned long long>(blockIdx.y) * static_cast<unsigned>(launch.resamples) +
                           static_cast<unsigned>(b)) * static_cast<unsigned>(launch.centers) + static_cast<unsigned>(v)] =
                best[v];
        }
    }
}

extern "C" __global__ void __launch_bounds__(kSpaVarianceThreads) btforge_spa_variances(const SpaVarianceLaunch launch) {
    extern __shared__ double rows[];
    const unsigned t = threadIdx.x;
    const unsigned long long first = static_cast<unsigned long long>(blockIdx.x) * kSpaVarianceThreads;
    const unsigned long long end =
        first + kSpaVarianceThreads < launch.combinations ? first + kSpaVarianceThreads : launch.combinations;
    spa_load_streams(launch, rows, first, end, t);
    __syncthreads();
    if (first + t < end) {
        launch.variances[first + t] = spa_variance_of(launch, rows + t * (static_cast<unsigned>(launch.observations) | 1u));
    }
}

}  // namespace btforge::device
