{{stamp}}
// Host binding of strategy "{{strategy}}" ({{spec_file}}), Note [Strategy
// bindings]: the engine's flat parameter values and series pointers, in the
// spec's order, into the kernel's structs field by field by name; then the
// reference kernel {{entry}} runs as it is. Compiled as part of
// generated/strategy_catalog.cpp, which includes it.
#include "host/strategies/parameter_cast.h"
#include "host/strategies/strategy_binding.h"
#include "{{header}}"

namespace btforge {

namespace {

// Note [Run shape] (generated/btforge_device.cuh) on the CPU: a market of
// one symbol runs the reference with n_symbols the constant 1, inlined
// whole (flatten) so that the constant reaches every symbol loop. The same
// rules and the same arithmetic (-ffp-contract=off), so the same bits:
// parity_emu_narrow_one_symbol_* holds the generic kernels to it. Measured
// 1.4-1.9x on one thread (docs/PERFORMANCE.md, "Run shape").
[[gnu::flatten]] void run_{{strategy}}_single(const MarketView& market, const {{series_struct}}& s,
                                             const {{params_struct}}& p, const AccountConfig& config, Metrics& out,
                                             FillLog* log, double* equity_curve, PeriodStatistics* periods) {
    MarketView one = market;
    one.n_symbols = 1;
    {{entry}}(one, s, p, config, out, log, equity_curve, periods);
}

void run_{{strategy}}(const MarketView& market, const double* const* series, const double* values,
                      const AccountConfig& config, Metrics& out, FillLog* log, double* equity_curve,
                      PeriodStatistics* periods) {
    {{params_struct}} p{};
{{#parameters}}
    p.{{name}} = {{#integral}}int_param({{/integral}}values[{{index}}]{{#integral}}){{/integral}};
{{/parameters}}
    {{series_struct}} s{};
{{#series}}
    s.{{id}} = series[{{use}}];
{{/series}}
    if (market.n_symbols == 1) {
        run_{{strategy}}_single(market, s, p, config, out, log, equity_curve, periods);
        return;
    }
    {{entry}}(market, s, p, config, out, log, equity_curve, periods);
}

StrategyBinding {{strategy}}_strategy_binding() {
    return StrategyBinding{
        "{{strategy}}",
        "{{spec_name}}",
        { {{#parameters}}"{{name}}"{{^last}}, {{/last}}{{/parameters}} },
        { {{#series}}"{{id}}"{{^last}}, {{/last}}{{/series}} },
        &run_{{strategy}},
        {{reads_finer_bars}},  // Note [Kernels for finer bars]
    };
}

}  // namespace
}  // namespace btforge
