{{stamp}}
// Host/device layout: the structs both sides read and write, rewritten from
// the reference, with their sizes and offsets pinned as the reference has
// them on x86-64. Host code copies its reference structs into these (the
// static_asserts guarantee the bytes mean the same); kernels read them.
#pragma once

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
};

{{static_asserts}}
}  // namespace btforge::device
