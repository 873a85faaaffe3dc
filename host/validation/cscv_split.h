#pragma once

// The arithmetic of one CSCV split (Note [Combinatorially symmetric
// cross-validation] in backtest_overfitting.h), shared by the CPU pass
// (backtest_overfitting.cpp) and the device pass (host/cuda/kernels/
// backtest_overfitting.cu, nvcc --fmad=false): both call these functions
// on the same numbers in the same order, so the GPU's winners and ranks are
// the CPU's bit for bit. Plain C++17 arithmetic, no library.
//
// Note [CSCV scan]
// The input is packed once: per combination, per period, the return sum and
// the sum of squares (CscvSums, combination-major); the bar counts per period
// are the same for every combination (Note [Period statistics]: the window's
// bars cut by S), so a split's bar count is one number. Two scans follow,
// each over every (split, combination) pair:
//   1. winners: per split, the best in-sample Sharpe ratio and its
//      combination, under cscv_ranks_before (a total order: NaN below every
//      number, ties to the smaller combination index), so partial winners of
//      any subsets of combinations merge into the same winner in any order;
//   2. ranks: per split, how many combinations are strictly below the
//      winner's out-of-sample Sharpe ratio and how many equal it (the
//      winner included), plain counts that add up in any order.
// Both the CPU (tiles of combinations in cache, every split per tile) and the
// GPU (a thread per split, combinations streamed through shared memory)
// reduce partial results by these rules only, so thread counts, tiles and
// grids never change the result.

#include <cmath>

#ifdef __CUDACC__
#define BTFORGE_CSCV_HD __host__ __device__
#else
#define BTFORGE_CSCV_HD
#endif

namespace btforge {

struct CscvSums {
    double sum;          // Σ r over the period's bars
    double sum_squares;  // Σ r²
};

struct CscvBest {
    double sharpe;             // in-sample
    unsigned long long index;  // combination; kCscvNone before any offer
};

inline constexpr unsigned long long kCscvNone = ~0ull;

struct CscvCount {
    unsigned long long below;  // out-of-sample Sharpe strictly below the winner's
    unsigned long long equal;  // equal to it, the winner itself included
};

// The per-bar Sharpe ratio from sums (Note [Sharpe ratios per observation]):
// mean / population standard deviation, the variance as Σr²/n - mean²; 0 for
// no bar or no spread (as the metrics' sharpe).
BTFORGE_CSCV_HD inline double sharpe_of_sums(double sum, double sum_squares, long long bars) {
    if (bars == 0) return 0.0;
    const double n = static_cast<double>(bars);
    const double mean = sum / n;
    const double variance = sum_squares / n - mean * mean;
#ifdef __CUDA_ARCH__
    return variance > 0.0 ? mean / sqrt(variance) : 0.0;
#else
    return variance > 0.0 ? mean / std::sqrt(variance) : 0.0;
#endif
}

// The Sharpe ratio of one combination's periods selected by `mask` (bit p:
// period p), summed in period order. An unselected period adds +0.0, which
// leaves every sum as it was (a sum that starts at +0.0 never becomes -0.0
// under round-to-nearest), so the device can add without branching.
BTFORGE_CSCV_HD inline double cscv_sharpe(const CscvSums* row, int periods, unsigned mask, long long bars) {
    double sum = 0.0;
    double sum_squares = 0.0;
    for (int p = 0; p < periods; ++p) {
        const bool selected = (mask >> p & 1u) != 0;
        sum += selected ? row[p].sum : 0.0;
        sum_squares += selected ? row[p].sum_squares : 0.0;
    }
    return sharpe_of_sums(sum, sum_squares, bars);
}

// Whether (a, ia) ranks before (b, ib) in-sample: Note [CSCV scan].
BTFORGE_CSCV_HD inline bool cscv_ranks_before(double a, unsigned long long ia, double b, unsigned long long ib) {
    const bool a_nan = a != a;
    const bool b_nan = b != b;
    if (a_nan != b_nan) return b_nan;
    if (!a_nan && a != b) return a > b;
    return ia < ib;
}

BTFORGE_CSCV_HD inline void cscv_offer(CscvBest& best, double sharpe, unsigned long long index) {
    if (best.index == kCscvNone || cscv_ranks_before(sharpe, index, best.sharpe, best.index)) {
        best.sharpe = sharpe;
        best.index = index;
    }
}

BTFORGE_CSCV_HD inline CscvBest cscv_no_winner() {
    CscvBest best;
    best.sharpe = 0.0;
    best.index = kCscvNone;
    return best;
}

BTFORGE_CSCV_HD inline void cscv_count(CscvCount& count, double out_of_sample, double winner) {
    count.below += out_of_sample < winner ? 1u : 0u;
    count.equal += out_of_sample == winner ? 1u : 0u;
}

}  // namespace btforge
