{{stamp}}
// Sweep kernel of strategy "{{strategy}}" ({{spec_file}}): one thread per
// combination decodes its own index, reads the shared indicator series and
// runs {{entry}} from the reference, writing one Metrics row.
#include "btforge_device.cuh"

namespace btforge::device {

BTFORGE_DEVICE inline void decode_{{strategy}}(const SweepLaunch& launch, unsigned long long id, {{params_struct}}& p,
                                          {{series_struct}}& s) {
{{#parameters}}
    p.{{name}} = {{cast_open}}launch.values[launch.value_offset[{{index}}] + (id / launch.stride[{{index}}]) % launch.radix[{{index}}]]{{cast_close}};
{{/parameters}}
{{#series}}
    s.{{id}} = launch.series + launch.series_offset[launch.series_table[{{use}}] + {{local}}];
{{/series}}
}

}  // namespace btforge::device

extern "C" BTFORGE_GLOBAL void __launch_bounds__({{max_threads}}, {{min_blocks}})
btforge_{{strategy}}_sweep(const btforge::device::SweepLaunch launch) {
    unsigned long long ordinal = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (ordinal >= launch.count) return;
    btforge::device::{{params_struct}} p;
    btforge::device::{{series_struct}} s;
    btforge::device::decode_{{strategy}}(launch, launch.combination_ids[ordinal], p, s);
    btforge::device::{{entry}}(launch.market, s, p, launch.account, launch.rows[ordinal], nullptr, nullptr);
}
