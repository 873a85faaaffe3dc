#include "host/app/run_header.h"

#include "host/app/account_choice.h"
#include "host/data/timestamp_parse.h"
#include "host/io/number_format.h"

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

const char* const kSyntheticMarketNote =
    "note: no --data was given, so this ran on btforge's embedded SYNTHETIC market (made up to try the tool): "
    "these numbers describe no real instrument";

nlohmann::ordered_json instruments_json(const LoadedMarket& loaded) {
    const Market& m = loaded.market;
    nlohmann::ordered_json symbols = nlohmann::ordered_json::object();
    for (std::size_t s = 0; s < m.symbols.size(); ++s) {
        const Instrument& i = m.instruments[s];
        symbols[m.symbols[s]] = {{"qty_step", i.qty_step}, {"min_qty", i.min_qty}, {"price_tick", i.price_tick}};
    }
    return {{"source", loaded.instruments_source}, {"symbols", symbols}};
}

WindowFacts window_facts(const Market& market, const MarketWindow& window) {
    WindowFacts facts;
    facts.first_bar = window.first_bar;
    facts.n_bars = window.n_bars;
    if (window.n_bars > 0) {
        const auto& ts = market.timestamp_ms;
        facts.first_time = format_timestamp_iso(ts.at(static_cast<std::size_t>(window.first_bar)));
        facts.last_time = format_timestamp_iso(ts.at(static_cast<std::size_t>(window.first_bar + window.n_bars - 1)));
    }
    return facts;
}

RunAssumptions describe_assumptions(const LoadedMarket& market, const MarketWindow& window, const AccountSpec& account) {
    RunAssumptions a;
    a.market = market.description + time_span(market.market);
    a.timestamps = market.timestamp_note;
    a.loading = market.loading_note;
    a.window = window == whole_market(market.market) ? "every bar (--from/--to select a window)"
                                                      : describe_window(market.market, window);
    a.funding = market.funding_note;
    a.instruments = describe_instruments(market, 3);
    a.synthetic = market.synthetic;
    // Fees are fractions of the notional; slippage a fraction of the price,
    // against the trader, on taker fills.
    a.account = describe_account(account);
    return a;
}

std::string format_assumptions(const RunAssumptions& a) {
    std::string text = "  market:     " + a.market + "\n";
    if (a.synthetic) text += "  NOTE:       no --data: btforge's SYNTHETIC market, not yours; its results describe no real instrument\n";
    if (!a.timestamps.empty()) text += "  timestamps: " + a.timestamps + "\n";
    if (!a.loading.empty()) text += "  loading:    " + a.loading + "\n";
    text += "  window:     " + a.window + "\n";
    text += "  funding:    " + a.funding + "\n";
    text += "  instruments: " + a.instruments + "\n";
    text += "  account:    " + a.account + "\n";
    return text;
}

}  // namespace btforge
