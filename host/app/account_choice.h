#pragma once

#include <string>

#include "host/spec/account_settings.h"
#include "host/spec/grid.h"
#include "host/spec/strategy_spec.h"

namespace btforge {

// The command line's layer of Note [Account settings]: --initial-equity,
// --maker-fee, --taker-fee, --slippage, --margin-mode.
struct AccountChoice {
    AccountOverrides overrides;  // as given; checked by resolve_account
    std::string margin_mode;     // --margin-mode as given ("" when not); checked by resolve_account
};

// The spec's account, overridden by the grid's "account" block (when `grid`
// is given), overridden by the command line. Throws SpecError naming the
// option whose value breaks its setting's rule ("--taker-fee: expected a
// fraction of notional in [0, 0.1), got 0.5").
AccountSpec resolve_account(const AccountChoice& choice, const StrategySpec& spec, const Grid* grid);

// --margin-mode's text as a MarginMode; a UsageError for any
// other word than cross or isolated.
MarginMode margin_mode_option(const std::string& given);

// The given options as a command that repeats the run must carry them:
// " --initial-equity 5000 --taker-fee 0.001" ("" when none was given).
std::string account_arguments(const AccountChoice& choice);

// "initial_equity=10000 maker_fee=0.0002 taker_fee=0.0005 slippage=0.0002 margin_mode=cross",
// the names of the grid's "account" block and of the result JSON, numbers
// to 15 significant digits (the run header, Note [Run header]).
std::string describe_account(const AccountSpec& account);

}  // namespace btforge
