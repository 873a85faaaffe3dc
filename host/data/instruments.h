#pragma once

#include <filesystem>
#include <ostream>
#include <map>
#include <string>
#include <vector>

#include "host/data/market.h"

namespace btforge {

// Order-size rules by symbol, as read from an instruments file (SPEC §4).
using InstrumentTable = std::map<std::string, Instrument>;

// Reads `{ "BTCUSDT": {"qty_step": 0.001, "min_qty": 0.001, "price_tick": 0.1}, ... }`.
// Every key of a symbol is optional (the Instrument defaults fill in); values
// must be positive finite numbers; unknown keys and repeated keys are
// rejected, because a typo such as "qty_stp" would otherwise silently fall
// back to a default. Throws DataError naming the file and the JSON path
// (rules: cannot-read, bad-json, duplicate-key, expected-object,
// unknown-key, expected-positive-number).
InstrumentTable load_instruments(const std::filesystem::path& file);

// The same from text; `file_label` only names the source in errors.
InstrumentTable parse_instruments(const std::string& json_text, const std::string& file_label);

// Writes the instruments of `symbols` in the format load_instruments reads,
// with shortest round-trip numbers, through an AtomicFile.
void write_instruments(const std::vector<std::string>& symbols, const std::vector<Instrument>& instruments,
                       const std::filesystem::path& file);
// The same document into `out` (an OutputTransaction's stream).
void write_instruments(const std::vector<std::string>& symbols, const std::vector<Instrument>& instruments,
                       std::ostream& out);

}  // namespace btforge
