{{stamp}}
// Sweep kernel of strategy "{{strategy}}" ({{spec_file}}): the strategy's own
// device code (Note [Generated files stay local]), then one thread per
// combination that decodes its own index, reads the shared indicator series
// and runs {{entry}} from the reference, writing one Metrics row.
#include "btforge_device.cuh"

namespace btforge::device {
inline namespace BTFORGE_PASTE(symbols, BTFORGE_SYMBOL_CAPACITY) {  // Note [Kernel variants]

{{strategy_code}}
{{static_asserts}}

// Note [Folded parameters]
// A run-time (NVRTC) build of this kernel defines BTFORGE_FIXED_<name> for
// every parameter that has a single value in the sweep, so it is a
// compile-time constant there; the generic nvcc build defines none and
// decodes every parameter from the combination id.
#define BTFORGE_DECODE(index) launch.values[launch.value_offset[index] + (id / launch.stride[index]) % launch.radix[index]]

BTFORGE_DEVICE inline void decode_{{strategy}}(const SweepLaunch& launch, unsigned long long id, {{params_struct}}& p,
                                          {{series_struct}}& s) {
{{#parameters}}
#ifdef BTFORGE_FIXED_{{name}}
    p.{{name}} = BTFORGE_FIXED_{{name}};
#else
    p.{{name}} = {{cast_open}}BTFORGE_DECODE({{index}}){{cast_close}};
#endif
{{/parameters}}
{{#series}}
    s.{{id}} = btforge_series_pointer(launch.series + launch.series_offset[launch.series_table[{{use}}] + {{local}}]);
{{/series}}
}

#undef BTFORGE_DECODE

}  // inline namespace symbols<capacity>
}  // namespace btforge::device

// Note [Two kernels per strategy]
// The kernel without period statistics passes a literal null, so the
// compiler drops the period code (MetricsAccumulator::n_periods folds to 0)
// and its registers and instructions stay those of the metrics alone (86
// registers for the default strategy on sm_90, as before periods existed);
// the _periods kernel writes account.n_periods PeriodStatistics per
// combination (Note [Period statistics]) and, where launch.marks is not
// null, account.equity_marks equity marks (Note [Equity marks]). The host
// launches the one a run asks for. The two bodies are written out, not
// shared through a helper: with one, nvcc kept the strategy out of line (74
// registers, a larger stack) and the null no longer reached it, so the
// period code stayed.
extern "C" BTFORGE_GLOBAL void __launch_bounds__({{max_threads}}, {{min_blocks}})
BTFORGE_KERNEL_NAME(btforge_{{strategy}}_sweep)(const btforge::device::SweepLaunch launch) {
    unsigned long long ordinal = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (ordinal >= launch.count) return;
    btforge::device::{{params_struct}} p;
    btforge::device::{{series_struct}} s;
    btforge::device::decode_{{strategy}}(launch, launch.combination_ids[ordinal], p, s);
    btforge::device::{{entry}}(btforge::device::{{market_without_finer_bars}}(launch.market), s, p, launch.account,
                               launch.rows[ordinal], nullptr, nullptr, nullptr);
}

extern "C" BTFORGE_GLOBAL void __launch_bounds__({{max_threads}}, {{min_blocks}})
BTFORGE_KERNEL_NAME(btforge_{{strategy}}_sweep_periods)(const btforge::device::SweepLaunch launch) {
    unsigned long long ordinal = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (ordinal >= launch.count) return;
    btforge::device::{{params_struct}} p;
    btforge::device::{{series_struct}} s;
    btforge::device::decode_{{strategy}}(launch, launch.combination_ids[ordinal], p, s);
    btforge::device::{{entry}}(btforge::device::{{market_without_finer_bars}}(launch.market), s, p, launch.account,
                               launch.rows[ordinal], nullptr,
                               launch.marks != nullptr ? launch.marks + ordinal * launch.account.equity_marks : nullptr,
                               launch.periods + ordinal * launch.account.n_periods);
}
{{#reads_finer_bars}}

// Note [Kernels for finer bars]: the two kernels above with the market's
// finer bars, for the runs that have them.
extern "C" BTFORGE_GLOBAL void __launch_bounds__({{max_threads}}, {{min_blocks}})
BTFORGE_KERNEL_NAME(btforge_{{strategy}}_sweep_finer)(const btforge::device::SweepLaunch launch) {
    unsigned long long ordinal = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (ordinal >= launch.count) return;
    btforge::device::{{params_struct}} p;
    btforge::device::{{series_struct}} s;
    btforge::device::decode_{{strategy}}(launch, launch.combination_ids[ordinal], p, s);
    btforge::device::{{entry}}(btforge::device::with_finer_bars_of_data(launch.market), s, p, launch.account,
                               launch.rows[ordinal], nullptr, nullptr, nullptr);
}

extern "C" BTFORGE_GLOBAL void __launch_bounds__({{max_threads}}, {{min_blocks}})
BTFORGE_KERNEL_NAME(btforge_{{strategy}}_sweep_periods_finer)(const btforge::device::SweepLaunch launch) {
    unsigned long long ordinal = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (ordinal >= launch.count) return;
    btforge::device::{{params_struct}} p;
    btforge::device::{{series_struct}} s;
    btforge::device::decode_{{strategy}}(launch, launch.combination_ids[ordinal], p, s);
    btforge::device::{{entry}}(btforge::device::with_finer_bars_of_data(launch.market), s, p, launch.account,
                               launch.rows[ordinal], nullptr,
                               launch.marks != nullptr ? launch.marks + ordinal * launch.account.equity_marks : nullptr,
                               launch.periods + ordinal * launch.account.n_periods);
}

#define BTFORGE_FINER_KERNELS_{{strategy}} \
    &BTFORGE_KERNEL_NAME(btforge_{{strategy}}_sweep_finer), &BTFORGE_KERNEL_NAME(btforge_{{strategy}}_sweep_periods_finer)
{{/reads_finer_bars}}
{{^reads_finer_bars}}

// Note [Kernels for finer bars]: this strategy never reads them, so the two
// kernels above serve runs with finer bars too.
#define BTFORGE_FINER_KERNELS_{{strategy}} \
    &BTFORGE_KERNEL_NAME(btforge_{{strategy}}_sweep), &BTFORGE_KERNEL_NAME(btforge_{{strategy}}_sweep_periods)
{{/reads_finer_bars}}

// Note [Kernels for a mark price]: the two kernels above for a market with a mark price.
extern "C" BTFORGE_GLOBAL void __launch_bounds__({{max_threads}}, {{min_blocks}})
BTFORGE_KERNEL_NAME(btforge_{{strategy}}_sweep_mark)(const btforge::device::SweepLaunch launch) {
    unsigned long long ordinal = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (ordinal >= launch.count) return;
    btforge::device::{{params_struct}} p;
    btforge::device::{{series_struct}} s;
    btforge::device::decode_{{strategy}}(launch, launch.combination_ids[ordinal], p, s);
    btforge::device::{{entry}}(btforge::device::with_mark_price(launch.market), s, p, launch.account,
                               launch.rows[ordinal], nullptr, nullptr, nullptr);
}

extern "C" BTFORGE_GLOBAL void __launch_bounds__({{max_threads}}, {{min_blocks}})
BTFORGE_KERNEL_NAME(btforge_{{strategy}}_sweep_periods_mark)(const btforge::device::SweepLaunch launch) {
    unsigned long long ordinal = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (ordinal >= launch.count) return;
    btforge::device::{{params_struct}} p;
    btforge::device::{{series_struct}} s;
    btforge::device::decode_{{strategy}}(launch, launch.combination_ids[ordinal], p, s);
    btforge::device::{{entry}}(btforge::device::with_mark_price(launch.market), s, p, launch.account,
                               launch.rows[ordinal], nullptr,
                               launch.marks != nullptr ? launch.marks + ordinal * launch.account.equity_marks : nullptr,
                               launch.periods + ordinal * launch.account.n_periods);
}

#define BTFORGE_MARK_KERNELS_{{strategy}} \
    &BTFORGE_KERNEL_NAME(btforge_{{strategy}}_sweep_mark), &BTFORGE_KERNEL_NAME(btforge_{{strategy}}_sweep_periods_mark)
