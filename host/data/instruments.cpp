#include "host/data/instruments.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "host/data/csv_fields.h"
#include "host/data/data_error.h"
#include "host/data/margin_schedule_input.h"
#include "host/io/atomic_file.h"
#include "host/io/sha256.h"
#include "host/json/checked_json.h"

namespace btforge {

namespace {

using nlohmann::json;

std::string json_type_and_value(const json& value) {
    std::string text = value.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return text;
}

// The reader's errors in the DataError form of this file: the rule as the
// reader names it, and a JSON pointer leading the message.
DataError as_data_error(const JsonInputError& e) {
    return DataError(e.origin(), e.line(), e.column(), e.rule(),
                     e.json_pointer().empty() ? e.message() : e.json_pointer() + ": " + e.message());
}

std::string size_range_message(const std::string& got) {
    return "expected a number in " + std::string(kInstrumentSizeRange) +
           " (the accounting rounds to 1e-12, so a finer size is erased), got " + got;
}

// See Note [Instrument size range].
double instrument_size(const json& value, const std::string& file_label, const std::string& where) {
    const double x = value.is_number() ? value.get<double>() : 0.0;
    if (!(x > 0.0))
        throw DataError(file_label, 0, 0, "expected-positive-number",
                        where + ": expected a positive number, got " + json_type_and_value(value));
    if (!instrument_size_in_range(x))
        throw DataError(file_label, 0, 0, "out-of-range", where + ": " + size_range_message(json_type_and_value(value)));
    return x;
}

}  // namespace

InstrumentTable parse_instruments(const std::string& json_text, const std::string& file_label) {
    json root;
    try {
        root = parse_checked_json(json_text, file_label);
    } catch (const JsonInputError& e) {
        throw as_data_error(e);
    }
    if (!root.is_object()) {
        throw DataError(file_label, 0, 0, "expected-object",
                        "/: expected an object of symbols, got " + json_type_and_value(root));
    }
    InstrumentTable table;
    for (const auto& [symbol, fields] : root.items()) {
        const std::string where = json_pointer_child("", symbol);
        if (symbol.empty()) {
            throw DataError(file_label, 0, 0, "expected-object", where + ": a symbol name must not be empty");
        }
        if (!fields.is_object()) {
            throw DataError(file_label, 0, 0, "expected-object",
                            where + ": expected an object with qty_step, min_qty, price_tick, maintenance_margin, "
                                    "liquidation_fee, got " +
                                json_type_and_value(fields));
        }
        Instrument instrument;
        for (const auto& [key, value] : fields.items()) {
            const std::string path = json_pointer_child(where, key);
            if (key == "qty_step") {
                instrument.qty_step = instrument_size(value, file_label, path);
            } else if (key == "min_qty") {
                instrument.min_qty = instrument_size(value, file_label, path);
            } else if (key == "price_tick") {
                instrument.price_tick = instrument_size(value, file_label, path);
            } else if (key == "maintenance_margin") {
                read_maintenance_tiers(value, file_label, path, instrument.margin);
            } else if (key == "liquidation_fee") {
                read_liquidation_fee(value, file_label, path, instrument.margin);
            } else {
                throw DataError(file_label, 0, 0, "unknown-key",
                                path + ": unknown key (expected qty_step, min_qty, price_tick, maintenance_margin, "
                                       "liquidation_fee)");
            }
        }
        table.emplace(symbol, instrument);
    }
    return table;
}

std::optional<InstrumentBreak> instrument_break(const Instrument& instrument) {
    for (const auto& [key, size] : {std::pair{"qty_step", instrument.qty_step}, std::pair{"min_qty", instrument.min_qty},
                                    std::pair{"price_tick", instrument.price_tick}}) {
        if (!instrument_size_in_range(size)) {
            return InstrumentBreak{"out-of-range", json_pointer_child("", key), size_range_message(shortest_text(size))};
        }
    }
    if (auto broken = margin_schedule_break(instrument.margin)) {
        return InstrumentBreak{std::move(broken->rule), std::move(broken->where), std::move(broken->message)};
    }
    return std::nullopt;
}

InstrumentTable load_instruments(const std::filesystem::path& file, std::string* sha256) {
    std::string text;
    try {
        text = read_json_file(file, file.string());
    } catch (const JsonInputError& e) {
        throw as_data_error(e);
    }
    if (sha256 != nullptr) *sha256 = sha256_hex(text);
    return parse_instruments(text, file.string());
}

void write_instruments(const std::vector<std::string>& symbols, const std::vector<Instrument>& instruments,
                       const std::filesystem::path& file) {
    std::ostringstream text;
    write_instruments(symbols, instruments, text);
    write_file_atomically(file, text.str());
}

void write_instruments(const std::vector<std::string>& symbols, const std::vector<Instrument>& instruments,
                       std::ostream& out) {
    if (symbols.size() != instruments.size()) {
        throw std::invalid_argument("write_instruments: " + std::to_string(symbols.size()) + " symbols but " +
                                    std::to_string(instruments.size()) + " instruments");
    }
    json root = json::object();
    for (std::size_t i = 0; i < symbols.size(); ++i) {
        json entry = {{"qty_step", instruments[i].qty_step},
                      {"min_qty", instruments[i].min_qty},
                      {"price_tick", instruments[i].price_tick}};
        // Note [Default margin schedule]: written only where it is not the default.
        const MarginSchedule fallback = default_margin_schedule();
        if (!same_margin_schedule(instruments[i].margin, fallback)) {
            entry["maintenance_margin"] = maintenance_tiers_json(instruments[i].margin);
            entry["liquidation_fee"] = instruments[i].margin.liquidation_fee;
        }
        root[symbols[i]] = std::move(entry);
    }
    out << root.dump(2) << '\n';
}

}  // namespace btforge
