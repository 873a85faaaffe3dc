#include "host/app/account_choice.h"

#include "host/app/usage_error.h"
#include "host/io/number_format.h"

namespace btforge {

MarginMode margin_mode_option(const std::string& given) {
    const std::optional<MarginMode> mode = parse_margin_mode(given);
    if (!mode) throw UsageError("--margin-mode must be cross or isolated, got '" + given + "'");
    return *mode;
}

AccountSpec resolve_account(const AccountChoice& c, const StrategySpec& spec, const Grid* grid) {
    for (std::size_t i = 0; i < kAccountSettings; ++i) {
        const AccountSetting& setting = account_settings()[i];
        if (c.overrides.values[i]) check_account_value(setting, *c.overrides.values[i], "--" + std::string(setting.option), "");
    }
    AccountOverrides command_line = c.overrides;
    if (!c.margin_mode.empty()) command_line.margin_mode = margin_mode_option(c.margin_mode);
    AccountSpec account = spec.account;
    if (grid != nullptr) account = apply_account_overrides(account, grid->account);
    return apply_account_overrides(account, command_line);
}

std::string account_arguments(const AccountChoice& c) {
    std::string text;
    for (std::size_t i = 0; i < kAccountSettings; ++i) {
        if (!c.overrides.values[i]) continue;
        text += " --";
        text += account_settings()[i].option;
        text += " ";
        text += format_double(*c.overrides.values[i]);
    }
    if (!c.margin_mode.empty()) text += " --margin-mode " + c.margin_mode;
    return text;
}

std::string describe_account(const AccountSpec& account) {
    std::string text;
    for (const AccountSetting& setting : account_settings()) {
        if (!text.empty()) text += " ";
        text += setting.key;
        text += "=";
        // For people (the header): 0.0002, not 2e-04; the JSON keeps every bit.
        text += format_significant(account.*(setting.field), 15);
    }
    text += " margin_mode=";
    text += margin_mode_name(account.margin_mode);
    return text;
}

}  // namespace btforge
