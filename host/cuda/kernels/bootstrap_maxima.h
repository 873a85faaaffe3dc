#pragma once

// The SPA's bootstrap passes on the device (Note [Reality Check, SPA and
// StepM] in host/validation/superior_predictive_ability.h): shared by the
// kernel (bootstrap_maxima.cu, nvcc) and the host (bootstrap_maxima_device.cpp:
// the same phases run sequentially, which is what the tests run without a
// GPU).
//
// Note [Bootstrap maxima on the device]
// A thread per resample, a block of kSpaThreads resamples; blockIdx.y picks
// a chunk of the combinations. The block streams its chunk through shared
// memory in tiles of `tile` combinations, transposed as the CPU's tile is
// (observation-major: a resample's position reads one row of the tile), the
// row padded to an odd number of doubles so that threads at different
// positions fall in different banks. Each thread sums, for every
// combination of the tile, count * d over its resample's positions in
// their order, divides by T and keeps the maximum of mean - center per
// recentering: the CPU's operations per (resample, combination), with
// --fmad=false as every btforge kernel. Each thread writes one partial
// maximum per chunk and recentering; the host takes the maximum over the
// chunks, which no order changes (a maximum of ±0 is made +0 by the
// caller), so the device's maxima are the CPU's bit for bit. A tile holds at
// most kSpaSharedBytes: streams longer than a tile of one combination can
// hold (T > kSpaSharedBytes / 16) are scanned on the CPU.
// The variances of the SPA's threshold (stationary_bootstrap_variances) run
// there too: a thread per stream, kSpaVarianceThreads streams per block in
// shared memory (rows padded to an odd count), each thread the CPU's
// sequence of operations on its stream, with the CPU's κ weights; streams
// longer than kSpaMaxVarianceObservations keep the whole SPA on the CPU.

#ifdef __CUDACC__
#define BTFORGE_SPA_HD __host__ __device__
#else
#define BTFORGE_SPA_HD
#include <cmath>
#endif

namespace btforge::device {

inline constexpr unsigned kSpaThreads = 128;
inline constexpr unsigned kSpaMaxTile = 16;
inline constexpr unsigned kSpaSharedBytes = 48 * 1024;  // no opt-in needed on any architecture
inline constexpr int kSpaMaxCenters = 3;

// The kernel's only parameter, by value.
struct SpaScanLaunch {
    const double* values;           // [combinations * observations], stream-major
    const int* positions;           // [max_length * resamples]: position i of resample b at i * resamples + b
    const double* counts;           // the same layout
    const int* lengths;             // [resamples]: positions drawn at least once
    const double* center_values;    // [centers * combinations]
    const unsigned char* selected;  // [combinations]
    double* maxima;                 // [(chunk * resamples + b) * centers + v]
    unsigned long long combinations;
    unsigned long long chunk;       // combinations per chunk (the last may have fewer)
    int observations;
    int resamples;
    int centers;
    unsigned tile;                  // combinations per tile, 1..kSpaMaxTile
};

// Doubles per row of a tile: `tile` padded to an odd count.
BTFORGE_SPA_HD inline unsigned spa_row_stride(unsigned tile) { return tile | 1u; }

// The widest tile of streams of `observations` within kSpaSharedBytes, at
// most kSpaMaxTile; 0 when not even one fits.
BTFORGE_SPA_HD inline unsigned spa_tile_width(int observations) {
    if (observations < 1) return 0;
    unsigned best = 0;
    for (unsigned tile = 1; tile <= kSpaMaxTile; ++tile) {
        if (static_cast<unsigned long long>(observations) * spa_row_stride(tile) * sizeof(double) <= kSpaSharedBytes) {
            best = tile;
        }
    }
    return best;
}

inline constexpr unsigned kSpaVarianceThreads = 16;
inline constexpr int kSpaMaxVarianceObservations =
    static_cast<int>(kSpaSharedBytes / (kSpaVarianceThreads * sizeof(double))) - 1;  // 383: rows of T | 1

struct SpaVarianceLaunch {
    const double* values;  // [combinations * observations]
    const double* kappa;   // [observations], index 0 unused
    double* variances;     // [combinations]
    unsigned long long combinations;
    int observations;
};

// Phase 1 of a block, thread t: copy the streams of combinations [first,
// end) to rows of T | 1 doubles.
BTFORGE_SPA_HD inline void spa_load_streams(const SpaVarianceLaunch& launch, double* rows, unsigned long long first,
                                            unsigned long long end, unsigned t) {
    const unsigned observations = static_cast<unsigned>(launch.observations);
    const unsigned stride = observations | 1u;
    const unsigned values = static_cast<unsigned>(end - first) * observations;
    for (unsigned v = t; v < values; v += kSpaVarianceThreads) {
        rows[(v / observations) * stride + v % observations] = launch.values[first * observations + v];
    }
}

// Phase 2, the thread of combination k (its row): stationary_bootstrap_variances'
// operations, the row demeaned in place.
BTFORGE_SPA_HD inline double spa_variance_of(const SpaVarianceLaunch& launch, double* row) {
    const int T = launch.observations;
    const double t = static_cast<double>(T);
    double sum = 0.0;
    for (int s = 0; s < T; ++s) sum += row[s];
    const double mean = sum / t;
    double squares = 0.0;
    for (int s = 0; s < T; ++s) {
        row[s] = row[s] - mean;
        squares += row[s] * row[s];
    }
    double variance = squares / t;
    for (int i = 1; i < T; ++i) {
        double lagged = 0.0;
        for (int s = 0; s + i < T; ++s) lagged += row[s] * row[s + i];
        variance += 2.0 * launch.kappa[i] * lagged / t;
    }
    return variance;
}

BTFORGE_SPA_HD inline double spa_minus_infinity() { return -static_cast<double>(INFINITY); }

BTFORGE_SPA_HD inline unsigned long long spa_chunk_begin(const SpaScanLaunch& launch, unsigned chunk) {
    const unsigned long long begin = static_cast<unsigned long long>(chunk) * launch.chunk;
    return begin < launch.combinations ? begin : launch.combinations;
}

BTFORGE_SPA_HD inline unsigned long long spa_chunk_end(const SpaScanLaunch& launch, unsigned chunk) {
    const unsigned long long end = spa_chunk_begin(launch, chunk) + launch.chunk;
    return end < launch.combinations ? end : launch.combinations;
}

// Phase 1 of a tile, thread t: copy the streams of combinations [first,
// end), observation-major; unselected and missing columns are 0.
BTFORGE_SPA_HD inline void spa_load_tile(const SpaScanLaunch& launch, double* tile, unsigned long long first,
                                         unsigned long long end, unsigned t) {
    const unsigned width = static_cast<unsigned>(end - first);
    const unsigned stride = spa_row_stride(launch.tile);
    const unsigned observations = static_cast<unsigned>(launch.observations);
    const unsigned values = launch.tile * observations;
    for (unsigned v = t; v < values; v += kSpaThreads) {
        const unsigned j = v / observations;
        const unsigned s = v % observations;
        double x = 0.0;
        if (j < width && launch.selected[first + j] != 0) x = launch.values[(first + j) * observations + s];
        tile[s * stride + j] = x;
    }
}

// Phase 2 of a tile, the thread of resample b: its mean of every selected
// combination of the tile, offered to best[v] per recentering.
BTFORGE_SPA_HD inline void spa_scan_tile(const SpaScanLaunch& launch, const double* tile, unsigned long long first,
                                         unsigned long long end, int b, double* best) {
    const unsigned width = static_cast<unsigned>(end - first);
    const unsigned stride = spa_row_stride(launch.tile);
    double sums[kSpaMaxTile];
    for (unsigned j = 0; j < kSpaMaxTile; ++j) sums[j] = 0.0;
    const int length = launch.lengths[b];
    for (int i = 0; i < length; ++i) {
        const unsigned long long at = static_cast<unsigned long long>(i) * static_cast<unsigned>(launch.resamples) +
                                      static_cast<unsigned>(b);
        const double c = launch.counts[at];
        const double* row = tile + static_cast<unsigned>(launch.positions[at]) * stride;
        for (unsigned j = 0; j < kSpaMaxTile; ++j) {
            if (j < launch.tile) sums[j] += c * row[j];
        }
    }
    const double observations = static_cast<double>(launch.observations);
    for (unsigned j = 0; j < kSpaMaxTile; ++j) {
        if (j >= width || launch.selected[first + j] == 0) continue;
        const double mean = sums[j] / observations;
        for (int v = 0; v < launch.centers; ++v) {
            const double value = mean - launch.center_values[static_cast<unsigned long long>(v) * launch.combinations + first + j];
            if (value > best[v]) best[v] = value;
        }
    }
}

}  // namespace btforge::device
