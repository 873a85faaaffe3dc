#pragma once

#include "host/strategies/strategy_binding.h"

namespace btforge {

StrategyBinding sma_cross_binding();

}  // namespace btforge
