{{stamp}}
// The strategies that have a generated sweep kernel: host code expands
// BTFORGE_FOR_EACH_STRATEGY(X) to X(<name>) per strategy, so no host file
// lists them by hand. Kernel entry points are extern "C" btforge_<name>_sweep.
#pragma once

#define BTFORGE_FOR_EACH_STRATEGY(X) {{#strategies}}X({{name}}) {{/strategies}}
