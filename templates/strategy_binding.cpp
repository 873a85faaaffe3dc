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
    {{entry}}(market, s, p, config, out, log, equity_curve, periods);
}

StrategyBinding {{strategy}}_strategy_binding() {
    return StrategyBinding{
        "{{strategy}}",
        "{{spec_name}}",
        { {{#parameters}}"{{name}}"{{^last}}, {{/last}}{{/parameters}} },
        { {{#series}}"{{id}}"{{^last}}, {{/last}}{{/series}} },
        &run_{{strategy}},
    };
}

}  // namespace
}  // namespace btforge
