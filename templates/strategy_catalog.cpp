{{stamp}}
// The strategy catalog: every strategy btforge-gen discovered (Note [Strategy
// discovery]), each through its generated binding. This is the one
// translation unit of the bindings: it includes them, so the build compiles
// a file that always exists whatever strategies come and go.
#include <vector>

#include "host/strategies/strategy_binding.h"
{{#strategies}}
#include "generated/{{name}}_binding.cpp"
{{/strategies}}

namespace btforge {

std::span<const StrategyBinding> strategy_bindings() {
    static const std::vector<StrategyBinding> bindings = {
{{#strategies}}
        {{name}}_strategy_binding(),
{{/strategies}}
    };
    return bindings;
}

}  // namespace btforge
