#include "host/strategies/default_strategy_binding.h"
#include "host/strategies/sma_cross_binding.h"
#include "host/strategies/strategy_binding.h"

namespace btforge {

std::span<const StrategyBinding> strategy_bindings() {
    static const std::vector<StrategyBinding> bindings = {default_strategy_binding(), sma_cross_binding()};
    return bindings;
}

const StrategyBinding* find_strategy_binding(std::string_view name) {
    for (const StrategyBinding& binding : strategy_bindings()) {
        if (binding.name == name) return &binding;
    }
    return nullptr;
}

}  // namespace btforge
