#pragma once

#include <filesystem>
#include <ostream>

#include "host/data/market.h"

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

}  // namespace btforge
