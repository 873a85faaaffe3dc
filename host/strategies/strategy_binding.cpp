#include "host/strategies/strategy_binding.h"

namespace btforge {

// strategy_bindings() is generated: generated/strategy_catalog.cpp.
const StrategyBinding* find_strategy_binding(std::string_view name) {
    for (const StrategyBinding& binding : strategy_bindings()) {
        if (binding.name == name) return &binding;
    }
    return nullptr;
}

}  // namespace btforge
