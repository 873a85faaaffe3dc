#include "host/cli/run_header.h"

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

std::string rate_text(double rate) { return format_significant(rate) + " (" + format_significant(rate * 100.0) + "%)"; }

}  // namespace

RunAssumptions describe_assumptions(const LoadedMarket& market, const AccountConfig& account) {
    RunAssumptions a;
    a.market = market.description + time_span(market.market);
    a.timestamps = market.timestamp_note;
    a.funding = market.funding_note;
    a.account = "initial equity " + format_significant(account.initial_equity, 15) + ", maker fee " +
                rate_text(account.maker_fee) + ", taker fee " + rate_text(account.taker_fee) + ", slippage " +
                rate_text(account.slippage) + " of the price on taker fills";
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
