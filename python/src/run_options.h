#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nanobind/nanobind.h>

#include "host/app/account_choice.h"
#include "host/app/backend_choice.h"
#include "host/app/market_choice.h"
#include "host/app/strategy_choice.h"
#include "host/app/window_choice.h"

namespace btforge::python {

// The keyword arguments of btforge.sweep / replay / Market, as the Python
// side collects them in a dict, read into the command line's choices (Note
// [One sweep, two front ends]): every key is the option's name with '_' for
// '-', so a value means what the option means and is checked by the same
// code. A key the dict has but no choice reads is an error (the Python side
// builds these dicts; a stray key is a bug, not user input).
struct RunOptions {
    explicit RunOptions(nanobind::dict options) : options_(std::move(options)) {}

    StrategyChoice strategy();
    AccountChoice account();
    MarketChoice market();
    WindowChoice window();
    BackendChoice backend();

    bool has(const char* key) const { return options_.contains(key); }
    std::string text(const char* key, std::string otherwise);
    double number(const char* key, double otherwise);
    long long integer(const char* key, long long otherwise);
    bool flag(const char* key, bool otherwise);
    std::vector<std::string> texts(const char* key);  // a list of strings; empty when absent
    // Throws when a key was not read by any of the above.
    void check_all_read() const;

    // What every run reads alike (SweepRequest, ReplayRequest): strategy,
    // account, window, and the market: `loaded` when Python passed a
    // btforge.Market, else the market options of the dict.
    template <typename Request>
    void read_run(Request& request, std::shared_ptr<const LoadedMarket> loaded) {
        request.strategy = strategy();
        request.account = account();
        request.window = window();
        if (loaded) {
            request.loaded_market = std::move(loaded);
        } else {
            request.market = market();
        }
    }

private:
    nanobind::dict options_;
    std::set<std::string> read_;
};

}  // namespace btforge::python
