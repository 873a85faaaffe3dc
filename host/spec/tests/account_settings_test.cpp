#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/spec/account_settings.h"
#include "host/spec/grid.h"
#include "host/spec/spec_error.h"
#include "host/spec/tests/spec_fixtures.h"

namespace btforge {
namespace {

using nlohmann::json;

Grid grid_with_account(const StrategySpec& spec, const json& account) {
    const json document = {{"strategy", "default"}, {"account", account}};
    return parse_grid(document.dump(), "grid.json", spec);
}

TEST_CASE("a grid's account block overrides the spec's values key by key, and the command line overrides both") {
    const StrategySpec spec = test::default_spec();  // 10000, 0.0002, 0.0005, 0.0002
    const Grid plain = parse_grid(R"({"strategy": "default"})", "grid.json", spec);
    CHECK(plain.account.empty());
    CHECK(apply_account_overrides(spec.account, plain.account).taker_fee == 0.0005);

    const Grid grid = grid_with_account(spec, {{"taker_fee", 0.001}, {"initial_equity", 5000}});
    CHECK_FALSE(grid.account.empty());
    const AccountSpec with_grid = apply_account_overrides(spec.account, grid.account);
    CHECK(with_grid.initial_equity == 5000);
    CHECK(with_grid.maker_fee == 0.0002);
    CHECK(with_grid.taker_fee == 0.001);
    CHECK(with_grid.slippage == 0.0002);
    CHECK(with_grid.margin_mode == kCrossMargin);  // the spec's default
    const Grid isolated = grid_with_account(spec, {{"margin_mode", "isolated"}});
    CHECK_FALSE(isolated.account.empty());
    CHECK(apply_account_overrides(spec.account, isolated.account).margin_mode == kIsolatedMargin);
    AccountOverrides back_to_cross;
    back_to_cross.margin_mode = kCrossMargin;
    CHECK(apply_account_overrides(apply_account_overrides(spec.account, isolated.account), back_to_cross).margin_mode ==
          kCrossMargin);

    AccountOverrides command_line;
    command_line.values[2] = 0.0007;  // taker_fee
    command_line.values[3] = 0.0;     // slippage
    const AccountSpec all = apply_account_overrides(with_grid, command_line);
    CHECK(all.initial_equity == 5000);
    CHECK(all.maker_fee == 0.0002);
    CHECK(all.taker_fee == 0.0007);
    CHECK(all.slippage == 0.0);
}

TEST_CASE("the settings name the JSON keys and options of the AccountSpec fields, in field order") {
    const auto settings = account_settings();
    const std::vector<std::string> keys = {"initial_equity", "maker_fee", "taker_fee", "slippage"};
    const std::vector<std::string> options = {"initial-equity", "maker-fee", "taker-fee", "slippage"};
    AccountSpec account{1, 2, 3, 4};
    for (std::size_t i = 0; i < settings.size(); ++i) {
        CAPTURE(i);
        CHECK(settings[i].key == keys[i]);
        CHECK(settings[i].option == options[i]);
        CHECK(account.*(settings[i].field) == static_cast<double>(i + 1));
    }
}

TEST_CASE("malformed account blocks of a grid are rejected like the spec's, at their JSON pointer") {
    const StrategySpec spec = test::default_spec();
    struct Case {
        json account;
        const char* pointer;
        const char* message;
    };
    const std::vector<Case> cases = {
        {5, "/account", "expected an account object, got 5"},
        {{{"fee", 0.1}}, "/account/fee", "expected one of the keys initial_equity, maker_fee, taker_fee, slippage, margin_mode, got unknown key \"fee\""},
        {{{"margin_mode", "portfolio"}}, "/account/margin_mode", "expected \"cross\" or \"isolated\", got \"portfolio\""},
        {{{"margin_mode", 1}}, "/account/margin_mode", "expected a string, got 1"},
        {{{"initial_equity", 0}}, "/account/initial_equity", "expected a positive number of at most 1e12, got 0"},
        {{{"initial_equity", -100}}, "/account/initial_equity", "expected a positive number of at most 1e12, got -100"},
        {{{"taker_fee", 0.5}}, "/account/taker_fee", "expected a fraction of notional in [0, 0.1), got 0.5"},
        {{{"maker_fee", 0.1}}, "/account/maker_fee", "expected a fraction of notional in [0, 0.1), got 0.1"},
        {{{"slippage", -0.001}}, "/account/slippage", "expected a fraction of notional in [0, 0.1), got -0.001"},
        {{{"maker_fee", "x"}}, "/account/maker_fee", "expected a number, got \"x\""},
    };
    for (const Case& c : cases) {
        CAPTURE(c.account.dump());
        try {
            grid_with_account(spec, c.account);
            FAIL("accepted");
        } catch (const SpecError& e) {
            CHECK(e.origin() == "grid.json");
            CHECK(e.json_pointer() == c.pointer);
            CHECK(e.message() == c.message);
        }
    }
}

TEST_CASE("a value given elsewhere (the command line) is checked by the same rules") {
    const auto settings = account_settings();
    struct Case {
        std::size_t setting;
        double value;
        const char* message;  // empty: accepted
    };
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<Case> cases = {
        {0, 10000, ""},
        {0, 1e-6, ""},
        {0, 0, "--initial-equity: expected a positive number of at most 1e12, got 0"},
        {0, inf, "--initial-equity: expected a positive number of at most 1e12, got inf"},
        {0, std::nan(""), "--initial-equity: expected a positive number of at most 1e12, got nan"},
        {0, 2e12, "--initial-equity: expected a positive number of at most 1e12, got 2e+12"},
        {1, 0, ""},
        {1, 0.0999, ""},
        {1, 0.1, "--maker-fee: expected a fraction of notional in [0, 0.1), got 0.1"},
        {2, -1e-9, "--taker-fee: expected a fraction of notional in [0, 0.1), got -1e-09"},
        {3, std::nan(""), "--slippage: expected a fraction of notional in [0, 0.1), got nan"},
    };
    for (const Case& c : cases) {
        const AccountSetting& setting = settings[c.setting];
        const std::string option = "--" + std::string(setting.option);
        CAPTURE(option);
        CAPTURE(c.value);
        if (std::string(c.message).empty()) {
            CHECK_NOTHROW(check_account_value(setting, c.value, option, ""));
            continue;
        }
        try {
            check_account_value(setting, c.value, option, "");
            FAIL("accepted");
        } catch (const SpecError& e) {
            CHECK(std::string(e.what()) == c.message);
        }
    }
}

}  // namespace
}  // namespace btforge
