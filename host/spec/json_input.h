#pragma once

// Checked reading of the JSON documents of host/spec (strategy specs, grids):
// every accessor either returns a value of the asked type or throws a
// SpecError that names the JSON pointer of the offending value, what was
// expected there, and what was found. Internal to btforge_spec.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "host/json/checked_json.h"

namespace btforge::spec_detail {

// Parses strict JSON under the rules of Note [Checked JSON documents]
// (repeated keys, depth, size, numbers beyond the double range), reporting
// any problem as a SpecError: a spec whose second "min" quietly won would be a
// bug nobody would spot.
nlohmann::json parse_json_document(std::string_view text, const std::string& origin);

using btforge::json_pointer_child;

// How a value is named after "got": scalars as written, containers by kind.
std::string describe_json(const nlohmann::json& value);

// [a-z][a-z0-9_]*: a name that can appear in file names, CSV headers and
// command lines without quoting.
bool is_identifier(std::string_view name);

// An identifier that is also usable verbatim as a C++/CUDA name: the
// generator turns parameter names and indicator ids into struct fields, so
// "int", "new" or a name holding "__" (reserved to the implementation) would
// not compile there.
bool is_field_name(std::string_view name);

// A value inside a document, with its location. Holds references: the
// document and the origin string must outlive it.
class JsonNode {
public:
    JsonNode(const nlohmann::json& value, std::string pointer, const std::string& origin)
        : value_(&value), pointer_(std::move(pointer)), origin_(&origin) {}

    const nlohmann::json& json() const { return *value_; }
    const std::string& pointer() const { return pointer_; }
    const std::string& origin() const { return *origin_; }

    // Throws "expected <expected>, got <this value>" at this node.
    [[noreturn]] void fail(std::string_view expected) const;
    // Throws "expected <expected>, got <got>" at this node.
    [[noreturn]] void fail(std::string_view expected, std::string_view got) const;

    // Objects.
    const JsonNode& expect_object(std::string_view expected = "an object") const;
    // Rejects, at the unknown key's own pointer, any key not in `keys`.
    const JsonNode& allow_only_keys(std::initializer_list<std::string_view> keys) const;
    const JsonNode& allow_only_keys(std::span<const std::string> keys) const;
    std::optional<JsonNode> find(std::string_view key) const;
    JsonNode require(std::string_view key, std::string_view why = {}) const;

    // Arrays.
    std::size_t expect_array(std::string_view expected = "an array") const;  // returns its size
    JsonNode element(std::size_t index) const;

    // Scalars.
    std::string as_string() const;
    std::string as_identifier() const;
    std::string as_field_name() const;
    double as_number() const;  // any finite JSON number
    bool as_bool() const;
    // A non-negative integer that fits in 64 bits; integral floats (1e6) count.
    std::uint64_t as_unsigned(std::string_view expected = "an unsigned integer") const;

private:
    const nlohmann::json* value_;
    std::string pointer_;
    const std::string* origin_;
};

}  // namespace btforge::spec_detail
