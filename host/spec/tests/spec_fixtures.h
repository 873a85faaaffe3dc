#pragma once

#include <string>
#include <vector>

#include "host/spec/indicator_signature.h"
#include "host/spec/strategy_spec.h"

namespace btforge::test {

inline const std::vector<IndicatorSignature>& catalog() {
    const std::vector<std::string> kColumns = {"open", "high", "low", "close", "volume"};
    static const std::vector<IndicatorSignature> signatures = {
        {"EMA", {"period"}, {"value"}, {"close"}, false, {true}, kColumns, {1}, {100000},
         {"an integer from 1 to 100000"}},
        {"SMA", {"period"}, {"value"}, {"close"}, false, {true}, kColumns, {1}, {100000},
         {"an integer from 1 to 100000"}},
        {"BBANDS", {"period", "k"}, {"upper", "middle", "lower"}, {"close"}, false, {true, false}, kColumns,
         {2, -3e37}, {100000, 3e37}, {"an integer from 2 to 100000", "a number from -3e+37 to 3e+37"}},
        {"ATR", {"period"}, {"value"}, {"high", "low", "close"}, false, {true}, {}, {1}, {100000},
         {"an integer from 1 to 100000"}},
    };
    return signatures;
}

// Series and non-series parameters alternate so that the digit order of the
// combination space differs from the spec order.
inline const char* const kSpecJson = R"({
  "strategy": "default",
  "description": "EMA trend / Bollinger mean reversion, ATR stops",
  "account": {"initial_equity": 10000, "maker_fee": 0.0002, "taker_fee": 0.0005, "slippage": 0.0002},
  "parameters": [
    {"name": "ema_fast", "type": "int", "default": 12, "min": 2, "max": 400, "series": true, "description": "fast EMA period"},
    {"name": "sl_atr", "type": "double", "default": 2.0, "min": 0.1, "max": 20, "series": false, "description": "stop distance in ATRs"},
    {"name": "ema_slow", "type": "int", "default": 50, "min": 2, "max": 400, "series": true},
    {"name": "mode", "type": "int", "default": 0, "min": 0, "max": 2, "series": false},
    {"name": "bb_period", "type": "int", "default": 20, "min": 2, "max": 400, "series": true},
    {"name": "bb_k", "type": "double", "default": 2.0, "min": 0.5, "max": 5, "series": true},
    {"name": "allow_short", "type": "bool", "default": true, "series": false, "description": "may go short"}
  ],
  "indicators": [
    {"id": "ema_fast", "indicator": "EMA", "params": {"period": "ema_fast"}},
    {"id": "ema_slow", "indicator": "EMA", "params": {"period": "ema_slow"}},
    {"id": "bb_upper", "indicator": "BBANDS", "output": "upper", "params": {"period": "bb_period", "k": "bb_k"}},
    {"id": "bb_lower", "indicator": "BBANDS", "output": "lower", "params": {"k": "bb_k", "period": "bb_period"}},
    {"id": "atr", "indicator": "ATR", "params": {"period": 14}}
  ]
})";

inline StrategySpec default_spec() { return parse_strategy_spec(kSpecJson, "spec.json", catalog()); }

}  // namespace btforge::test
