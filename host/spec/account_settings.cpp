#include "host/spec/account_settings.h"

#include <cmath>
#include <cstddef>
#include <vector>

#include "host/spec/json_input.h"
#include "host/io/number_format.h"

namespace btforge {

namespace {

// Note [Accounting quantum] bounds the equity too (kMaxInitialEquity).
bool equity_in_range(double value) { return value > 0.0 && value <= kMaxInitialEquity; }

// Fees and slippage are fractions of notional; 10% or more is a percent
// written where a fraction was meant.
bool fraction_of_notional(double value) { return value >= 0.0 && value < 0.1; }

constexpr std::string_view kFraction = "a fraction of notional in [0, 0.1)";

constexpr std::array<AccountSetting, kAccountSettings> kSettings = {{
    {"initial_equity", "initial-equity", &AccountSpec::initial_equity, "a positive number of at most 1e12",
     equity_in_range,
     "cash the account starts with"},
    {"maker_fee", "maker-fee", &AccountSpec::maker_fee, kFraction, fraction_of_notional,
     "fee of a maker fill (targets), a fraction of notional"},
    {"taker_fee", "taker-fee", &AccountSpec::taker_fee, kFraction, fraction_of_notional,
     "fee of a taker fill (entries, stops, exits at open or close), a fraction of notional"},
    {"slippage", "slippage", &AccountSpec::slippage, kFraction, fraction_of_notional,
     "price slippage against the trader on taker fills, a fraction of the price"},
}};

// A new numeric AccountSpec field needs its setting above (and its key in
// the spec); the margin mode, the one that is not a number, follows them.
static_assert(offsetof(AccountSpec, margin_mode) == kAccountSettings * sizeof(double));
static_assert(sizeof(AccountSpec) == kAccountSettings * sizeof(double) + sizeof(double));

constexpr std::string_view kMarginModeKey = "margin_mode";

}  // namespace

std::span<const AccountSetting, kAccountSettings> account_settings() { return kSettings; }

bool AccountOverrides::empty() const {
    for (const auto& value : values)
        if (value) return false;
    return !margin_mode;
}

AccountSpec apply_account_overrides(AccountSpec account, const AccountOverrides& overrides) {
    for (std::size_t i = 0; i < kAccountSettings; ++i)
        if (overrides.values[i]) account.*(kSettings[i].field) = *overrides.values[i];
    if (overrides.margin_mode) account.margin_mode = *overrides.margin_mode;
    return account;
}

std::optional<MarginMode> parse_margin_mode(std::string_view text) {
    if (text == "cross") return kCrossMargin;
    if (text == "isolated") return kIsolatedMargin;
    return std::nullopt;
}

std::string_view margin_mode_name(MarginMode mode) { return mode == kIsolatedMargin ? "isolated" : "cross"; }

void check_account_value(const AccountSetting& setting, double value, const std::string& origin,
                         const std::string& json_pointer) {
    if (!setting.accepts(value))
        throw SpecError(origin, json_pointer, "expected " + std::string(setting.rule) + ", got " + format_double(value));
}

namespace spec_detail {

AccountOverrides parse_account_block(const JsonNode& node) {
    node.expect_object("an account object");
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> names;
        for (const AccountSetting& setting : kSettings) names.emplace_back(setting.key);
        names.emplace_back(kMarginModeKey);
        return names;
    }();
    node.allow_only_keys(keys);
    AccountOverrides overrides;
    for (std::size_t i = 0; i < kAccountSettings; ++i) {
        if (auto given = node.find(kSettings[i].key)) {
            const double value = given->as_number();
            if (!kSettings[i].accepts(value)) given->fail(kSettings[i].rule);
            overrides.values[i] = value;
        }
    }
    if (auto given = node.find(kMarginModeKey)) {
        overrides.margin_mode = parse_margin_mode(given->as_string());
        if (!overrides.margin_mode) given->fail("\"cross\" or \"isolated\"");
    }
    return overrides;
}

}  // namespace spec_detail

}  // namespace btforge
