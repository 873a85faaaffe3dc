#pragma once

#include <filesystem>
#include <ostream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/data/market.h"
#include "reference/accounting/quantize.h"

namespace btforge {

// Trading rules by symbol, as read from an instruments file (SPEC §4).
using InstrumentTable = std::map<std::string, Instrument>;

// Note [Instrument size range]
// qty_step, min_qty and price_tick lie in [1e-12, 1e9]. Quantities and prices
// are rounded to whole numbers of 1e-12 (Note [Decimal grid values]), so a
// finer step or tick would be erased by that rounding, and a subnormal such
// as 1e-320 divides prices into infinities; above 1e9 a size is a unit mistake (no exchange
// trades a billion units per step or quotes a billion per tick).
inline constexpr double kMinInstrumentSize = 1.0 / kDecimalGridScale;
inline constexpr double kMaxInstrumentSize = 1e9;
inline constexpr std::string_view kInstrumentSizeRange = "[1e-12, 1e9]";
static_assert(kMinInstrumentSize == 1e-12, "kInstrumentSizeRange says 1e-12");

inline bool instrument_size_in_range(double size) { return size >= kMinInstrumentSize && size <= kMaxInstrumentSize; }

// The first rule of an instruments file that `instrument` breaks, wherever
// it comes from (Note [Market rules]: a market cache's instruments are
// checked as a parsed file's): a size outside Note [Instrument size range]
// (out-of-range), a margin schedule against Note [Maintenance margin tiers]
// (bad-margin-tier, out-of-range). `where` is the JSON path below the
// symbol's object ("/qty_step"); nullopt when it keeps them all.
struct InstrumentBreak {
    std::string rule;
    std::string where;
    std::string message;
};
std::optional<InstrumentBreak> instrument_break(const Instrument& instrument);

// Reads `{ "BTCUSDT": {"qty_step": 0.001, "min_qty": 0.001, "price_tick": 0.1,
// "maintenance_margin": [...], "liquidation_fee": 0.01}, ... }`.
// Every key of a symbol is optional (the Instrument defaults fill in, Note
// [Default margin schedule] for the margin); sizes must be numbers within
// Note [Instrument size range], the margin keys as margin_schedule_input.h
// says (rules bad-margin-tier, out-of-range); unknown keys are
// rejected, because a typo such as "qty_stp" would otherwise silently fall
// back to a default. The text is read under Note [Checked JSON documents].
// Throws DataError naming the file and the line:column or the JSON path
// (rules: cannot-read, too-large, bad-json, too-deep, number-out-of-range,
// duplicate-key, expected-object, unknown-key, expected-positive-number,
// out-of-range).
// The file is read through read_json_file (Note [Reading input files]);
// `sha256`, when given, receives the SHA-256 of the bytes parsed (Note
// [Market cache] keys a cache by them).
InstrumentTable load_instruments(const std::filesystem::path& file, std::string* sha256 = nullptr);

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
