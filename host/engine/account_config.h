#pragma once

#include "host/data/market.h"
#include "host/spec/strategy_spec.h"
#include "reference/accounting/fee_model.h"

namespace btforge {

// Bars per year from the median spacing of the aligned timestamps (1 for a
// market of fewer than two bars): hourly data gives 8766, daily 365.25.
double bars_per_year(const Market& market);

AccountConfig make_account_config(const AccountSpec& account, const Market& market);

// Note [Two kernels per strategy]: a run that keeps period statistics or
// equity marks (Note [Equity marks]) runs a strategy's _periods kernel.
inline bool keeps_period_outputs(const AccountConfig& account) {
    return account.n_periods > 0 || account.equity_marks > 0;
}

}  // namespace btforge
