#include "host/data/instruments.h"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "host/data/data_error.h"
#include "host/io/atomic_file.h"

namespace btforge {

namespace {

using nlohmann::json;

// RFC 6901: `~` and `/` inside a key are escaped so the path stays unambiguous.
std::string pointer_token(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out += c;
        }
    }
    return out;
}

std::string json_type_and_value(const json& value) {
    std::string text = value.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return text;
}

// 1-based line and column of a byte offset, for parse errors.
std::pair<std::size_t, std::size_t> line_column(const std::string& text, std::size_t offset) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return {line, column};
}

// nlohmann keeps the last of repeated keys without a word; a parser callback
// sees every key, so a repeated one can be named before it is lost.
json parse_rejecting_duplicate_keys(const std::string& text, const std::string& file_label) {
    std::vector<std::set<std::string>> keys_per_object;
    std::vector<std::string> path;
    std::string pending_key;
    const json::parser_callback_t callback = [&](int depth, json::parse_event_t event, json& parsed) {
        switch (event) {
            case json::parse_event_t::object_start:
                keys_per_object.emplace_back();
                break;
            case json::parse_event_t::object_end:
                keys_per_object.pop_back();
                break;
            case json::parse_event_t::key: {
                const std::string key = parsed.get<std::string>();
                if (!keys_per_object.back().insert(key).second) {
                    std::string where;
                    for (int i = 0; i < depth - 1 && i < static_cast<int>(path.size()); ++i) where += "/" + path[static_cast<std::size_t>(i)];
                    throw DataError(file_label, 0, 0, "duplicate-key",
                                    where + "/" + pointer_token(key) + ": key appears more than once");
                }
                if (static_cast<int>(path.size()) >= depth) path.resize(static_cast<std::size_t>(depth - 1));
                path.push_back(pointer_token(key));
                break;
            }
            default:
                break;
        }
        return true;
    };
    return json::parse(text, callback);
}

double positive_number(const json& value, const std::string& file_label, const std::string& where) {
    if (value.is_number()) {
        const double x = value.get<double>();
        if (std::isfinite(x) && x > 0.0) return x;
    }
    throw DataError(file_label, 0, 0, "expected-positive-number",
                    where + ": expected a positive number, got " + json_type_and_value(value));
}

}  // namespace

InstrumentTable parse_instruments(const std::string& json_text, const std::string& file_label) {
    json root;
    try {
        root = parse_rejecting_duplicate_keys(json_text, file_label);
    } catch (const json::parse_error& e) {
        const auto [line, column] = line_column(json_text, e.byte > 0 ? e.byte - 1 : 0);
        std::string what = e.what();
        // Drop nlohmann's "[json.exception.parse_error.101] " prefix: the rule id says it.
        if (const auto bracket = what.find("] "); bracket != std::string::npos) what = what.substr(bracket + 2);
        throw DataError(file_label, line, column, "bad-json", what);
    }
    if (!root.is_object()) {
        throw DataError(file_label, 0, 0, "expected-object",
                        "/: expected an object of symbols, got " + json_type_and_value(root));
    }
    InstrumentTable table;
    for (const auto& [symbol, fields] : root.items()) {
        std::string where = "/";  // built by appending: GCC 12 -Wrestrict misfires on "/" + temporary
        where += pointer_token(symbol);
        if (symbol.empty()) {
            throw DataError(file_label, 0, 0, "expected-object", where + ": a symbol name must not be empty");
        }
        if (!fields.is_object()) {
            throw DataError(file_label, 0, 0, "expected-object",
                            where + ": expected an object with qty_step, min_qty, price_tick, got " +
                                json_type_and_value(fields));
        }
        Instrument instrument;
        for (const auto& [key, value] : fields.items()) {
            const std::string path = where + "/" + pointer_token(key);
            if (key == "qty_step") {
                instrument.qty_step = positive_number(value, file_label, path);
            } else if (key == "min_qty") {
                instrument.min_qty = positive_number(value, file_label, path);
            } else if (key == "price_tick") {
                instrument.price_tick = positive_number(value, file_label, path);
            } else {
                throw DataError(file_label, 0, 0, "unknown-key",
                                path + ": unknown key (expected qty_step, min_qty, price_tick)");
            }
        }
        table.emplace(symbol, instrument);
    }
    return table;
}

InstrumentTable load_instruments(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw DataError(file.string(), 0, 0, "cannot-read", "cannot open the instruments file");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw DataError(file.string(), 0, 0, "cannot-read", "reading the instruments file failed");
    return parse_instruments(text.str(), file.string());
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
        root[symbols[i]] = {{"qty_step", instruments[i].qty_step},
                            {"min_qty", instruments[i].min_qty},
                            {"price_tick", instruments[i].price_tick}};
    }
    out << root.dump(2) << '\n';
}

}  // namespace btforge
