#include "host/cli/run_header.h"

#include "host/cli/account_options.h"
#include "host/data/timestamp_parse.h"
#include "host/spec/number_format.h"

namespace btforge {

namespace {

std::string time_span(const Market& market) {
    if (market.timestamp_ms.empty()) return "";
    try {
        return ", " + format_timestamp_iso(market.timestamp_ms.front()) + " .. " +
               format_timestamp_iso(market.timestamp_ms.back());
    } catch (const std::out_of_range&) {
        return "";
    }
}

}  // namespace

RunAssumptions describe_assumptions(const LoadedMarket& market, const AccountSpec& account) {
    RunAssumptions a;
    a.market = market.description + time_span(market.market);
    a.timestamps = market.timestamp_note;
    a.funding = market.funding_note;
    // Fees are fractions of the notional; slippage a fraction of the price,
    // against the trader, on taker fills.
    a.account = describe_account(account);
    return a;
}

std::string format_assumptions(const RunAssumptions& a) {
    std::string text = "  market:     " + a.market + "\n";
    if (!a.timestamps.empty()) text += "  timestamps: " + a.timestamps + "\n";
    text += "  funding:    " + a.funding + "\n";
    text += "  account:    " + a.account + "\n";
    return text;
}

}  // namespace btforge
