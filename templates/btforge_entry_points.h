{{stamp}}
// The strategies that have a generated sweep kernel: host code expands
// BTFORGE_FOR_EACH_STRATEGY(X) to X(<name>) per strategy, so no host file
// lists them by hand. Kernel entry points are extern "C" btforge_<name>_sweep and
// btforge_<name>_sweep_periods (Note [Two kernels per strategy]), each with
// the suffix of its kernel variant.
#pragma once

#define BTFORGE_FOR_EACH_STRATEGY(X) {{#strategies}}X({{name}}) {{/strategies}}

// The kernel variants (Note [Kernel variants] in reference/market/
// symbol_capacity.h), smallest first: X(name, max_symbols, suffix), where
// suffix ends the entry points' names (empty for the first).
#define BTFORGE_FOR_EACH_KERNEL_VARIANT(X) {{#variants}}X({{name}}, {{max_symbols}}, {{suffix}}) {{/variants}}

// The indicators the GPU computes, in kind order (IndicatorJob::kind is the
// position here); BREADTH, the cross-symbol one, has its own kernel.
#define BTFORGE_FOR_EACH_INDICATOR(X) {{#indicators}}X({{name}}) {{/indicators}}
