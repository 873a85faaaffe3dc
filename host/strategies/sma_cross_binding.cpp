#include "host/strategies/sma_cross_binding.h"

#include "host/strategies/parameter_cast.h"
#include "reference/strategies/sma_cross/sma_cross_strategy.h"

namespace btforge {

namespace {

void run_sma_cross(const MarketView& market, const double* const* series, const double* v,
                   const AccountConfig& config, Metrics& out, FillLog* log, double* equity_curve) {
    SmaCrossParams p{};
    p.fast_period = int_param(v[0]);
    p.slow_period = int_param(v[1]);
    p.stop_pct = v[2];
    p.position_fraction = v[3];
    p.allow_short = int_param(v[4]);
    SmaCrossSeries s{};
    s.sma_fast = series[0];
    s.sma_slow = series[1];
    run_sma_cross_strategy(market, s, p, config, out, log, equity_curve);
}

}  // namespace

StrategyBinding sma_cross_binding() {
    return StrategyBinding{
        "sma_cross",
        "sma_cross.json",
        {"fast_period", "slow_period", "stop_pct", "position_fraction", "allow_short"},
        {"sma_fast", "sma_slow"},
        &run_sma_cross,
    };
}

}  // namespace btforge
