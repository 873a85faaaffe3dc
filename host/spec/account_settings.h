#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "host/spec/strategy_spec.h"

namespace btforge {

// Note [Account settings]
// The account a run uses (initial equity, maker and taker fee, slippage,
// margin mode) is the strategy spec's "account" block, overridden key by key
// by the grid's "account" block, overridden in turn by the command line
// (--initial-equity, --maker-fee, --taker-fee, --slippage, --margin-mode).
// Each number obeys the one rule of its AccountSetting below wherever it is
// written, the margin mode is "cross" or "isolated" (Note [Cross and
// isolated margin]), and every result file states the values its run used.

struct AccountSetting {
    std::string_view key;     // the JSON key, e.g. "taker_fee"
    std::string_view option;  // the command-line option without "--", e.g. "taker-fee"
    double AccountSpec::*field;
    std::string_view rule;    // what a valid value is: "a fraction of notional in [0, 0.1)"
    bool (*accepts)(double value);
    std::string_view help;    // what the value means, for --help
};

inline constexpr std::size_t kAccountSettings = 4;

// initial_equity, maker_fee, taker_fee, slippage: the order of AccountSpec.
std::span<const AccountSetting, kAccountSettings> account_settings();

// Some of the account's values, each already checked by its setting's rule;
// an empty slot keeps the value of the layer below.
struct AccountOverrides {
    std::array<std::optional<double>, kAccountSettings> values{};  // in account_settings() order
    std::optional<MarginMode> margin_mode;

    bool empty() const;
};

AccountSpec apply_account_overrides(AccountSpec account, const AccountOverrides& overrides);

// "cross" or "isolated" as a MarginMode; nothing for any other text.
std::optional<MarginMode> parse_margin_mode(std::string_view text);
std::string_view margin_mode_name(MarginMode mode);

// Throws SpecError("origin: /json/pointer: expected <rule>, got <value>")
// when `value` breaks the setting's rule.
void check_account_value(const AccountSetting& setting, double value, const std::string& origin,
                         const std::string& json_pointer);

namespace spec_detail {

class JsonNode;

// An "account" object of a spec or a grid: any of the settings' keys, each
// checked by its rule, nothing else. Internal to btforge_spec.
AccountOverrides parse_account_block(const JsonNode& node);

}  // namespace spec_detail

}  // namespace btforge
