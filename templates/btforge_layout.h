{{stamp}}
// Host/device layout: the structs both sides read and write, rewritten from
// the reference, with their sizes and offsets pinned as the reference has
// them on x86-64. Host code copies its reference structs into these (the
// static_asserts guarantee the bytes mean the same); kernels read them.
#pragma once

// Note [Cold fields] (reference/kernel_marker.h): a BT_COLD field is
// volatile in device code, so it lives in local memory and not in a
// register; host code (and the host-compiled emu kernels) see a plain field.
// volatile changes neither size nor offsets, so the layout checks hold.
#ifndef BTFORGE_COLD
#if defined(__CUDA_ARCH__)
#define BTFORGE_COLD volatile
#else
#define BTFORGE_COLD
#endif
#endif

namespace btforge::device {

{{entities}}
// The arguments of every generated sweep kernel (one thread per combination).
// Parameter p of combination `id` is values[value_offset[p] + digit(p)] with
// digit(p) = (id / stride[p]) % radix[p] (SPEC §8). Indicator use u reads
// series + series_offset[series_table[u] + local], `local` being the mixed
// radix of the digits of the parameters it takes, the first most significant.
struct SweepLaunch {
    MarketView market;
    AccountConfig account;
    const unsigned long long* radix;             // [n_parameters], spec order
    const unsigned long long* stride;            // [n_parameters]
    const int* value_offset;                     // [n_parameters], into values
    const double* values;
    const double* series;                        // every indicator series, each [n_symbols * n_bars]
    const long long* series_offset;              // start of each series in `series`
    const int* series_table;                     // [n_indicator_uses]: first entry of each use in series_offset
    const unsigned long long* combination_ids;   // [count]
    unsigned long long count;
    Metrics* rows;                               // [count]
    PeriodStatistics* periods;                   // [count * account.n_periods], or null (Note [Period statistics])
    double* marks;                               // [count * account.equity_marks], or null (Note [Equity marks])
};

// Note [Indicator launches]
// The indicator kernels (indicator_series.cu) fill the series buffer that the
// sweep kernels read, in three launches:
//   1. gather: one thread per (symbol, price array, kGatherChunk own bars)
//      copies the symbol's own bars out of the aligned layout into own_prices;
//   2. series: one thread per job = (symbol, indicator, parameters) runs the
//      reference <name>_compute on those own bars, sequentially in time, into
//      its scratch slot, and holds the chosen output across the symbol's gaps
//      into series + series_offset (Note [Indicators hold across gaps]);
//   3. breadth: per tile of bars, every (symbol, bar) votes into shared-memory
//      integer counters, and the ratio goes to every symbol's row.
// Jobs whose kind is an indicator's position in BTFORGE_FOR_EACH_INDICATOR
// (btforge_entry_points.h); args are its parameters in catalog order.
constexpr int kIndicatorMaxArgs = {{indicator_max_args}};
constexpr int kIndicatorMaxOutputs = {{indicator_max_outputs}};
constexpr int kPriceArrays = 5;  // open, high, low, close, volume: the order of own_prices
constexpr int kBreadthTile = 128;
constexpr int kGatherChunk = 256;  // bars per block of the breadth kernel, and its threads

struct IndicatorJob {
    int kind;
    int symbol;
    int output;                     // which output goes to the series
    int input;                      // the price array a one-input indicator reads: open, high, low, close, volume = 0..4
    double args[kIndicatorMaxArgs];
    long long series_offset;        // start of the symbol's aligned row in `series`, in doubles
};

// BREADTH: EMA rows of every symbol (computed by series jobs) at ema_offset,
// the result replicated into every symbol's row from series_offset.
struct BreadthJob {
    long long ema_offset;
    long long series_offset;
};

struct IndicatorLaunch {
    MarketView market;
    const int* own_bars;            // every symbol's own aligned bar indices, one symbol after the other
    const int* own_begin;           // [n_symbols + 1]: symbol s owns own_bars[own_begin[s], own_begin[s + 1])
    double* own_prices;             // [kPriceArrays][n_symbols][n_bars]: prices on own bars, first n_own valid
    const IndicatorJob* jobs;       // [n_jobs]
    int n_jobs;
    int n_breadth;
    double* scratch;                // [n_jobs][kIndicatorMaxOutputs][n_bars]: a job's raw outputs
    double* series;                 // the sweep's series buffer
    const BreadthJob* breadth;      // [n_breadth]
};

{{static_asserts}}
}  // namespace btforge::device
