#include "host/app/market_choice.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "host/app/usage_error.h"
#include "host/data/csv_market_loader.h"
#include "host/data/finer_bars.h"
#include "host/data/funding_history.h"
#include "host/data/mark_prices.h"
#include "host/data/market_cache.h"
#include "host/data/market_limits.h"
#include "host/data/synthetic_market.h"
#include "host/io/number_format.h"

namespace btforge {

namespace {

std::string text_of(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

// Note [Market value limits]; a whole number of milliseconds, which also
// keeps the conversion to an integer exact.
std::int64_t funding_interval_ms(double hours) {
    const double ms = hours * 3600.0 * 1000.0;
    if (!(ms >= static_cast<double>(kMinFundingIntervalMs) && ms <= static_cast<double>(kMaxFundingIntervalMs)) ||
        ms != std::floor(ms)) {
        throw UsageError("--funding-interval-hours must be a whole number of milliseconds from 1 minute to 366 days "
                         "(8784 hours), got " + text_of(hours));
    }
    return static_cast<std::int64_t>(ms);
}

std::string_view unit_words(EpochUnit unit) {
    switch (unit) {
        case EpochUnit::Seconds: return "seconds";
        case EpochUnit::Milliseconds: return "milliseconds";
        case EpochUnit::Microseconds: return "microseconds";
        case EpochUnit::Nanoseconds: return "nanoseconds";
    }
    return "?";
}

}  // namespace

namespace {

std::string hours_text(double hours) { return format_double(hours) + (hours == 1.0 ? " hour" : " hours"); }

std::string percent_text(double rate) { return format_significant(rate * 100.0) + "%"; }

// Note [Run header]: a CSV without funding rates is charged a default that a
// user of spot data would not expect, so the header says it in words.
std::string csv_funding_note(const MarketChoice& c, const CsvMarketFacts& facts) {
    const std::string every = "each funding time (every " + hours_text(c.funding_interval_hours) + ")";
    const std::string constant = format_significant(c.funding_rate) + " (" + percent_text(c.funding_rate) +
                                 " of a position's notional, longs pay when positive; --funding-rate sets it, "
                                 "--funding-rate 0 for spot data)";
    if (facts.bars_with_funding_rate == facts.bars) {
        return "the file's funding_rate column, on " + every;
    }
    if (facts.bars_with_funding_rate == 0) {
        return "no funding_rate in " + c.data_file + ": " + every + " charges " + constant;
    }
    return "the file's funding_rate column on " + std::to_string(facts.bars_with_funding_rate) + " of " +
           std::to_string(facts.bars) + " bars; the others' " + every + " charges " + constant;
}

}  // namespace

LoadedMarket load_market(const MarketChoice& c) {
    if (!funding_rate_in_range(c.funding_rate)) {
        throw UsageError("--funding-rate must be finite and within -1..1 (100% of the position's value per funding "
                         "time), got " + text_of(c.funding_rate));
    }
    std::optional<EpochUnit> timestamp_unit;
    if (c.timestamp_unit != "auto") {
        timestamp_unit = parse_epoch_unit(c.timestamp_unit);
        if (!timestamp_unit) {
            throw UsageError("--timestamp-unit must be auto, s, ms, us or ns, got '" + c.timestamp_unit + "'");
        }
    }
    const std::int64_t interval_ms = funding_interval_ms(c.funding_interval_hours);
    if (!c.mark_file.empty() && !c.intrabar_file.empty()) {
        // Note [Mark price]: a walk of finer bars reads the last price only.
        throw UsageError("--mark and --intrabar: the finer bars have no mark price of their own, and a walk reads "
                         "the last price; give one or the other");
    }

    LoadedMarket loaded;
    loaded.choice = c;
    loaded.choice.data_text.reset();
    std::ostringstream description;
    if (!c.data_file.empty() || c.data_text) {
        MarketLoadOptions options;
        if (!c.instruments_file.empty()) options.instruments_file = c.instruments_file;
        options.default_funding_rate = c.funding_rate;
        options.funding_interval_ms = interval_ms;
        options.timestamp_unit = timestamp_unit;
        std::stringstream list(c.symbols);
        for (std::string symbol; std::getline(list, symbol, ',');) {
            if (symbol.empty()) break;
            options.symbols.push_back(symbol);
        }
        if (!c.symbols.empty() && (c.symbols.back() == ',' || std::count(c.symbols.begin(), c.symbols.end(), ',') + 1 !=
                                                                  static_cast<std::ptrdiff_t>(options.symbols.size()))) {
            throw UsageError("--symbols '" + c.symbols + "' has an empty name between its commas");
        }
        CsvMarketFacts facts;
        if (c.data_text) {
            loaded.market = load_market_csv_text(c.data_file, *c.data_text, options, &facts);
        } else if (c.market_cache) {
            MarketCacheUse cache;
            loaded.market = load_market_csv_cached(c.data_file, options, &facts, &cache);
            loaded.loading_note = describe_market_cache_use(cache);
        } else {
            loaded.market = load_market_csv(c.data_file, options, &facts);
        }
        description << c.data_file;
        if (facts.epoch_unit && facts.epoch_unit_detected) {
            loaded.timestamp_note = "integer timestamps read as epoch " + std::string(unit_words(*facts.epoch_unit)) +
                                    " (detected from their magnitudes; --timestamp-unit sets it)";
        }
        loaded.funding_note = csv_funding_note(c, facts);
        loaded.instruments_source = c.instruments_file.empty()
                                        ? "the defaults (no --instruments given: sizes that fit no particular exchange)"
                                        : "the file " + c.instruments_file;
    } else {
        if (!c.instruments_file.empty() || !c.symbols.empty() || (timestamp_unit && c.funding_file.empty())) {
            throw UsageError("--instruments, --symbols and --timestamp-unit apply to --data (and --timestamp-unit to "
                             "--funding-file); the synthetic market has its own");
        }
        if (c.synthetic_bar_minutes < 1) throw UsageError("--synthetic-bar-minutes must be >= 1");
        if (c.synthetic_symbols < 1 || c.synthetic_symbols > kMaxSymbols) {
            throw UsageError("--synthetic-symbols must be in 1.." + std::to_string(kMaxSymbols));
        }
        if (c.synthetic_bars < 1) throw UsageError("--synthetic-bars must be >= 1");
        SyntheticMarketOptions options;
        options.seed = c.synthetic_seed;
        options.n_symbols = c.synthetic_symbols;
        options.n_bars = c.synthetic_bars;
        options.bar_ms = static_cast<std::int64_t>(c.synthetic_bar_minutes) * 60'000;
        options.funding_interval_ms = interval_ms;
        // Every timestamp fits years 0000..9999 (Note [Epoch units]), like those of a file.
        if (options.bar_ms > (kMaxTimestampMs - options.start_ms) / std::max(options.n_bars - 1, 1)) {
            throw UsageError("--synthetic-bars x --synthetic-bar-minutes reach beyond the year 9999");
        }
        loaded.market = make_synthetic_market(options);
        loaded.funding_note = "the synthetic market's own rates (they drift between positive and negative), settled "
                              "every " + hours_text(c.funding_interval_hours) + " (--funding-interval-hours)";
        loaded.synthetic = true;
        loaded.instruments_source = "the synthetic market's own";
        description << "synthetic (seed " << c.synthetic_seed << ", " << c.synthetic_bar_minutes << "-minute bars)";
    }
    if (!c.funding_file.empty()) {
        // Note [Funding history]: the file replaces the funding of the symbols it names.
        const FundingHistory history = load_funding_history(c.funding_file, timestamp_unit);
        const FundingHistoryUse use = apply_funding_history(loaded.market, history);
        std::string note = describe_funding_history_use(history, use);
        if (!use.symbols_without_rates.empty()) note += " (" + loaded.funding_note + ")";
        loaded.funding_note = note;
    }
    description << ": " << loaded.market.n_symbols() << " symbols x " << loaded.market.n_bars() << " bars";
    // A file of bars beside the market's (finer bars, a mark price), read as --data is.
    auto load_beside = [&](const std::string& file) {
        MarketLoadOptions options;
        options.timestamp_unit = timestamp_unit;
        options.funding_interval_ms = interval_ms;
        return c.market_cache ? load_market_csv_cached(file, options, nullptr, nullptr) : load_market_csv(file, options);
    };
    if (!c.intrabar_file.empty()) {
        // Note [Checking finer bars]: the finer file's own symbols, all of them, matched by name.
        const FinerBarsUse use = attach_finer_bars(loaded.market, load_beside(c.intrabar_file), c.intrabar_file);
        description << "; " << describe_finer_bars(use, c.intrabar_file);
    }
    if (!c.mark_file.empty()) {
        // Note [Checking mark prices]
        const MarkPricesUse use = attach_mark_prices(loaded.market, load_beside(c.mark_file), c.mark_file);
        description << "; " << describe_mark_prices(&use, c.mark_file);
    } else {
        description << "; " << describe_mark_prices(nullptr, "");
    }
    loaded.description = description.str();
    return loaded;
}

std::string describe_instruments(const LoadedMarket& loaded, std::size_t max_symbols) {
    const Market& m = loaded.market;
    std::string text = loaded.instruments_source + ":";
    const std::size_t shown = std::min(m.symbols.size(), max_symbols);
    for (std::size_t s = 0; s < shown; ++s) {
        const Instrument& i = m.instruments[s];
        text += (s == 0 ? " " : "; ") + m.symbols[s] + " qty_step=" + format_significant(i.qty_step) +
                " min_qty=" + format_significant(i.min_qty) + " price_tick=" + format_significant(i.price_tick);
    }
    if (shown < m.symbols.size()) {
        text += "; and " + std::to_string(m.symbols.size() - shown) + " more (the result JSON lists every symbol)";
    }
    return text;
}

}  // namespace btforge
