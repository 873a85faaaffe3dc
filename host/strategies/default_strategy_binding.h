#pragma once

#include "host/strategies/strategy_binding.h"

namespace btforge {

StrategyBinding default_strategy_binding();

}  // namespace btforge
