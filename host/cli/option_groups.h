#pragma once

#include <string>

#include <boost/program_options.hpp>

#include "host/app/account_choice.h"
#include "host/app/backend_choice.h"
#include "host/app/market_choice.h"
#include "host/app/strategy_choice.h"
#include "host/app/window_choice.h"

namespace btforge {

// The command line's spelling of the application layer's choices
// (host/app/*_choice.h): each group fills its choice as Boost parses; the
// choice's own functions check and resolve it (Note [Usage errors]).

// --maker-fee, --taker-fee, --slippage, ..., --margin-mode.
boost::program_options::options_description account_options(AccountChoice& choice);

// --data, --instruments, --symbols, the funding and synthetic-market options.
boost::program_options::options_description market_options(MarketChoice& choice);

// --strategy, --spec; with `with_grid`, also --grid and --param.
boost::program_options::options_description strategy_options(StrategyChoice& choice, bool with_grid);

// --from, --to.
boost::program_options::options_description window_options(WindowChoice& choice);

// --backend and the GPU options; `allowed` lists the --backend values the
// command takes, e.g. "auto|cpu|emu|cuda".
boost::program_options::options_description backend_options(BackendChoice& choice, const std::string& allowed,
                                                             const std::string& default_name);

}  // namespace btforge
