#include "python/src/run_options.h"

#include <stdexcept>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "host/spec/account_settings.h"

namespace nb = nanobind;

namespace btforge::python {

std::string RunOptions::text(const char* key, std::string otherwise) {
    read_.insert(key);
    if (!options_.contains(key) || options_[key].is_none()) return otherwise;
    return nb::cast<std::string>(options_[key]);
}

double RunOptions::number(const char* key, double otherwise) {
    read_.insert(key);
    if (!options_.contains(key) || options_[key].is_none()) return otherwise;
    return nb::cast<double>(options_[key]);
}

long long RunOptions::integer(const char* key, long long otherwise) {
    read_.insert(key);
    if (!options_.contains(key) || options_[key].is_none()) return otherwise;
    return nb::cast<long long>(options_[key]);
}

bool RunOptions::flag(const char* key, bool otherwise) {
    read_.insert(key);
    if (!options_.contains(key) || options_[key].is_none()) return otherwise;
    return nb::cast<bool>(options_[key]);
}

std::vector<std::string> RunOptions::texts(const char* key) {
    read_.insert(key);
    if (!options_.contains(key) || options_[key].is_none()) return {};
    return nb::cast<std::vector<std::string>>(options_[key]);
}

void RunOptions::check_all_read() const {
    for (auto [key, value] : options_) {
        if (read_.count(nb::cast<std::string>(nb::str(key))) == 0) {
            throw std::logic_error("btforge._core: option '" + nb::cast<std::string>(nb::str(key)) + "' is not read");
        }
    }
}

StrategyChoice RunOptions::strategy() {
    StrategyChoice c;
    c.strategy = text("strategy", c.strategy);
    c.spec_file = text("spec", "");
    c.grid_file = text("grid", "");
    c.grid_text = text("grid_text", "");
    c.grid_text_origin = text("grid_text_origin", "<grid>");
    c.param_options = texts("param");
    return c;
}

AccountChoice RunOptions::account() {
    AccountChoice c;
    for (std::size_t i = 0; i < kAccountSettings; ++i) {
        const std::string key(account_settings()[i].key);
        read_.insert(key);
        if (options_.contains(key.c_str()) && !options_[key.c_str()].is_none()) {
            c.overrides.values[i] = nb::cast<double>(options_[key.c_str()]);
        }
    }
    c.margin_mode = text("margin_mode", "");
    return c;
}

MarketChoice RunOptions::market() {
    MarketChoice c;
    c.data_file = text("data", "");
    read_.insert("data_text");
    if (options_.contains("data_text") && !options_["data_text"].is_none()) {
        const nb::bytes bytes = nb::cast<nb::bytes>(options_["data_text"]);
        c.data_text = std::make_shared<const std::vector<char>>(bytes.c_str(), bytes.c_str() + bytes.size());
    }
    c.instruments_file = text("instruments", "");
    c.symbols = text("symbols", "");
    c.timestamp_unit = text("timestamp_unit", c.timestamp_unit);
    c.funding_file = text("funding_file", "");
    c.intrabar_file = text("intrabar", "");
    c.mark_file = text("mark", "");
    c.market_cache = flag("market_cache", c.market_cache);
    c.funding_rate = number("funding_rate", c.funding_rate);
    c.funding_interval_hours = number("funding_interval_hours", c.funding_interval_hours);
    c.synthetic_seed = static_cast<unsigned long long>(integer("synthetic_seed", static_cast<long long>(c.synthetic_seed)));
    c.synthetic_symbols = static_cast<int>(integer("synthetic_symbols", c.synthetic_symbols));
    c.synthetic_bars = static_cast<int>(integer("synthetic_bars", c.synthetic_bars));
    c.synthetic_bar_minutes = static_cast<int>(integer("synthetic_bar_minutes", c.synthetic_bar_minutes));
    return c;
}

WindowChoice RunOptions::window() {
    WindowChoice c;
    c.from = text("from", "");
    c.to = text("to", "");
    return c;
}

BackendChoice RunOptions::backend() {
    BackendChoice c;
    c.name = text("backend", c.name);
    c.device = static_cast<int>(integer("device", c.device));
    c.devices = text("devices", "");
    c.kernels_file = text("kernels", "");
    c.jit = flag("jit", false);
    c.jit_cache = text("jit_cache", "");
    c.max_chunk = static_cast<std::uint64_t>(integer("max_chunk", static_cast<long long>(c.max_chunk)));
    c.kernel_variant = text("kernel_variant", c.kernel_variant);
    return c;
}

}  // namespace btforge::python
