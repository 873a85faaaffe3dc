#include "host/cli/market_options.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "host/data/csv_market_loader.h"
#include "host/data/synthetic_market.h"

namespace btforge {

namespace po = boost::program_options;

po::options_description market_options(MarketChoice& c) {
    po::options_description options("Market data (default: the embedded synthetic market)");
    options.add_options()
        ("data", po::value(&c.data_file)->value_name("CSV"),
         "long CSV: timestamp,symbol,open,high,low,close,volume[,funding_rate]")
        ("instruments", po::value(&c.instruments_file)->value_name("JSON"),
         "per-symbol qty_step, min_qty, price_tick")
        ("symbols", po::value(&c.symbols)->value_name("A,B,..."), "load only these symbols of --data")
        ("funding-rate", po::value(&c.funding_rate)->default_value(c.funding_rate),
         "rate per funding time where the data has none")
        ("funding-interval-hours", po::value(&c.funding_interval_hours)->default_value(c.funding_interval_hours),
         "funding times are multiples of this from the epoch")
        ("synthetic-seed", po::value(&c.synthetic_seed)->default_value(c.synthetic_seed), "seed of the synthetic market")
        ("synthetic-symbols", po::value(&c.synthetic_symbols)->default_value(c.synthetic_symbols),
         "symbols of the synthetic market")
        ("synthetic-bars", po::value(&c.synthetic_bars)->default_value(c.synthetic_bars),
         "bars of the synthetic market")
        ("synthetic-bar-minutes", po::value(&c.synthetic_bar_minutes)->default_value(c.synthetic_bar_minutes),
         "bar length of the synthetic market");
    return options;
}

namespace {

std::int64_t funding_interval_ms(double hours) {
    double ms = hours * 3600.0 * 1000.0;
    if (!(ms >= 1.0) || ms != std::floor(ms)) {
        throw std::runtime_error("--funding-interval-hours must be a positive whole number of milliseconds");
    }
    return static_cast<std::int64_t>(ms);
}

}  // namespace

LoadedMarket load_market(const MarketChoice& c) {
    LoadedMarket loaded;
    std::ostringstream description;
    if (!c.data_file.empty()) {
        MarketLoadOptions options;
        if (!c.instruments_file.empty()) options.instruments_file = c.instruments_file;
        options.default_funding_rate = c.funding_rate;
        options.funding_interval_ms = funding_interval_ms(c.funding_interval_hours);
        std::stringstream list(c.symbols);
        for (std::string symbol; std::getline(list, symbol, ',');) {
            if (!symbol.empty()) options.symbols.push_back(symbol);
        }
        loaded.market = load_market_csv(c.data_file, options);
        description << c.data_file;
    } else {
        if (!c.instruments_file.empty() || !c.symbols.empty()) {
            throw std::runtime_error("--instruments and --symbols apply to --data; the synthetic market has its own");
        }
        if (c.synthetic_bar_minutes < 1) throw std::runtime_error("--synthetic-bar-minutes must be >= 1");
        if (c.synthetic_symbols < 1 || c.synthetic_symbols > kMaxSymbols) {
            throw std::runtime_error("--synthetic-symbols must be in 1.." + std::to_string(kMaxSymbols));
        }
        if (c.synthetic_bars < 1) throw std::runtime_error("--synthetic-bars must be >= 1");
        SyntheticMarketOptions options;
        options.seed = c.synthetic_seed;
        options.n_symbols = c.synthetic_symbols;
        options.n_bars = c.synthetic_bars;
        options.bar_ms = static_cast<std::int64_t>(c.synthetic_bar_minutes) * 60'000;
        options.funding_interval_ms = funding_interval_ms(c.funding_interval_hours);
        loaded.market = make_synthetic_market(options);
        description << "synthetic (seed " << c.synthetic_seed << ", " << c.synthetic_bar_minutes << "-minute bars)";
    }
    description << ": " << loaded.market.n_symbols() << " symbols x " << loaded.market.n_bars() << " bars";
    loaded.description = description.str();
    return loaded;
}

}  // namespace btforge
