#pragma once

#include <filesystem>
#include <ostream>
#include <span>

#include "host/data/funding_history.h"
#include "host/data/market.h"
#include "host/data/market_builder.h"

namespace btforge {

enum class TimestampFormat {
    EpochMs,  // integer epoch milliseconds
    Iso8601,  // YYYY-MM-DDTHH:MM:SS.sssZ
};

// Writes the own (tradable) bars of `market` as the long CSV of
// Note [Long CSV contract], with a funding_rate column, through an
// AtomicFile. Rows go symbol by symbol (each in time order) so that loading
// the file back yields the symbols in the same order, and numbers are
// written in their shortest exact form, so load_market_csv gives back a
// bit-identical Market (instruments aside: see write_instruments).
void write_market_csv(const Market& market, const std::filesystem::path& file,
                      TimestampFormat format = TimestampFormat::EpochMs);
// The same rows into `out` (an OutputTransaction's stream).
void write_market_csv(const Market& market, std::ostream& out, TimestampFormat format);

// Bars not yet aligned into a Market (an import, Note [Market import]), in
// the same form without the funding_rate column: a run charges the funding
// of --funding-file or --funding-rate.
void write_bars_csv(std::span<const SymbolBars> symbols, std::ostream& out, TimestampFormat format);

// A funding history as the funding file of Note [Funding history]:
// timestamp,symbol,rate, symbol by symbol in time order.
void write_funding_csv(const FundingHistory& history, std::ostream& out, TimestampFormat format);

}  // namespace btforge
