{{stamp}}
// Indicator kernels (Note [Indicator launches] in btforge_layout.h): every
// SPEC §5 indicator series of a sweep computed on the device by the
// reference's own functions, so each series is bit-identical to the CPU's.
#include "btforge_device.cuh"

namespace btforge::device {

// A symbol's prices on its own bars (own_prices), as its indicators read them.
struct OwnPrices {
    const double* open;
    const double* high;
    const double* low;
    const double* close;
    const double* volume;
};

// The own-bar prices of price array `input` (open, high, low, close, volume =
// 0..4), which a one-input indicator reads (Note [Indicator input column]).
BTFORGE_DEVICE inline const double* own_price_column(const OwnPrices& own, int input) {
    switch (input) {
        case 0: return own.open;
        case 1: return own.high;
        case 2: return own.low;
        case 4: return own.volume;
        default: return own.close;
    }
}

BTFORGE_DEVICE inline void compute_indicator_job(const IndicatorJob& job, const OwnPrices& own, int n, double* const* out) {
    switch (job.kind) {
{{#indicators}}
        case {{kind}}:  // {{name}}
            {{function}}({{arguments}});
            return;
{{/indicators}}
        default:
            return;
    }
}

}  // namespace btforge::device

// 1. One thread per (symbol, price array, chunk of kGatherChunk own bars):
// a copy, parallel over the bars too.
extern "C" BTFORGE_GLOBAL void btforge_gather_own_bars(const btforge::device::IndicatorLaunch launch) {
    using namespace btforge::device;
    const MarketView& m = launch.market;
    const int chunks = (m.n_bars + kGatherChunk - 1) / kGatherChunk;
    const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (thread >= static_cast<long long>(m.n_symbols) * kPriceArrays * chunks) return;
    const int chunk = static_cast<int>(thread % chunks);
    const int array = static_cast<int>((thread / chunks) % kPriceArrays);
    const int symbol = static_cast<int>(thread / (static_cast<long long>(chunks) * kPriceArrays));
    const int first = launch.own_begin[symbol];
    const int n_own = launch.own_begin[symbol + 1] - first;
    const int begin = chunk * kGatherChunk;
    if (begin >= n_own) return;
    const int count = n_own - begin < kGatherChunk ? n_own - begin : kGatherChunk;
    const double* aligned[kPriceArrays] = {m.open, m.high, m.low, m.close, m.volume};
    gather_own_bars(aligned[array] + market_index(m, symbol, 0), launch.own_bars + first + begin, count,
                    launch.own_prices + (static_cast<long long>(array) * m.n_symbols + symbol) * m.n_bars + begin);
}

// 2. One thread per job, sequential in time: the reference's order of operations.
extern "C" BTFORGE_GLOBAL void btforge_indicator_series(const btforge::device::IndicatorLaunch launch) {
    using namespace btforge::device;
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (j >= launch.n_jobs) return;
    const IndicatorJob job = launch.jobs[j];
    const MarketView& m = launch.market;
    const long long row = m.n_bars;
    const double* prices = launch.own_prices + static_cast<long long>(job.symbol) * row;
    const long long array = static_cast<long long>(m.n_symbols) * row;
    OwnPrices own;
    own.open = prices;
    own.high = prices + array;
    own.low = prices + 2 * array;
    own.close = prices + 3 * array;
    own.volume = prices + 4 * array;
    double* out[kIndicatorMaxOutputs];
    for (int k = 0; k < kIndicatorMaxOutputs; ++k) out[k] = launch.scratch + (static_cast<long long>(j) * kIndicatorMaxOutputs + k) * row;
    const int first = launch.own_begin[job.symbol];
    const int n = launch.own_begin[job.symbol + 1] - first;
    compute_indicator_job(job, own, n, out);
    hold_across_gaps(out[job.output], launch.own_bars + first, n, m.n_bars, launch.series + job.series_offset);
}

// Note [Breadth on the GPU]
// 3. Blocks of kBreadthTile threads. Block (x, y) takes bars [x * kBreadthTile, (x + 1) * kBreadthTile) of
// breadth job y. Its threads walk the (symbol, bar) pairs of the tile, bar
// fastest so that neighbouring threads read neighbouring bars, and add each
// breadth_vote into shared integer counters: integer addition is exact in any
// order, so the atomics leave the counts, and breadth_ratio the result,
// exactly the reference's.
extern "C" BTFORGE_GLOBAL void btforge_breadth_series(const btforge::device::IndicatorLaunch launch) {
    using namespace btforge::device;
    __shared__ int counted[kBreadthTile];
    __shared__ int above[kBreadthTile];
    const MarketView& m = launch.market;
    const BreadthJob job = launch.breadth[blockIdx.y];
    const int first = static_cast<int>(blockIdx.x) * kBreadthTile;
    for (int k = static_cast<int>(threadIdx.x); k < kBreadthTile; k += static_cast<int>(blockDim.x)) {
        counted[k] = 0;
        above[k] = 0;
    }
    __syncthreads();
    const double* ema = launch.series + job.ema_offset;
    for (int p = static_cast<int>(threadIdx.x); p < m.n_symbols * kBreadthTile; p += static_cast<int>(blockDim.x)) {
        const int k = p % kBreadthTile;
        const int t = first + k;
        if (t >= m.n_bars) continue;
        const BreadthVote vote = breadth_vote(m, ema, p / kBreadthTile, t);
        if (vote.counted != 0) atomicAdd(&counted[k], 1);
        if (vote.above != 0) atomicAdd(&above[k], 1);
    }
    __syncthreads();
    for (int k = static_cast<int>(threadIdx.x); k < kBreadthTile; k += static_cast<int>(blockDim.x)) {
        const int t = first + k;
        if (t >= m.n_bars) continue;
        const double ratio = breadth_ratio(above[k], counted[k]);
        for (int s = 0; s < m.n_symbols; ++s) launch.series[job.series_offset + market_index(m, s, t)] = ratio;
    }
}
