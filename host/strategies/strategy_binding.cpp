#include "host/strategies/strategy_binding.h"

namespace btforge {

// strategy_bindings() is generated: generated/strategy_catalog.cpp.
const StrategyBinding* find_strategy_binding(std::string_view name) {
    for (const StrategyBinding& binding : strategy_bindings()) {
        if (binding.name == name) return &binding;
    }
    return nullptr;
}

std::string missing_strategy_hint(std::string_view strategy) {
    const std::string name(strategy);
    return "a strategy is built in when reference/strategies/" + name + "/" + name + "_strategy.h and spec/" + name +
           ".json exist as the build runs btforge-gen (Note [Strategy discovery]); rebuild";
}

}  // namespace btforge
