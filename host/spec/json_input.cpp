#include "host/spec/json_input.h"

#include <algorithm>
#include <iterator>
#include <cmath>
#include <vector>

#include "host/spec/spec_error.h"

namespace btforge::spec_detail {

namespace {

using nlohmann::json;

constexpr std::string_view kCxxKeywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
    "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
    "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
    "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
};

}  // namespace

json parse_json_document(std::string_view text, const std::string& origin) {
    try {
        return parse_checked_json(text, origin);
    } catch (const JsonInputError& e) {
        if (e.line() > 0) throw SpecError(origin, SourcePosition{e.line(), e.column()}, e.message());
        throw SpecError(origin, e.json_pointer(), e.message());
    }
}

std::string describe_json(const json& value) {
    switch (value.type()) {
        case json::value_t::object:
            return value.empty() ? "an empty object" : "an object";
        case json::value_t::array:
            return value.empty() ? "an empty array" : "an array";
        case json::value_t::string: {
            std::string text = value.dump();
            constexpr std::size_t kMax = 64;
            if (text.size() > kMax) text = text.substr(0, kMax) + "...\"";
            return text;
        }
        default:
            return value.dump();
    }
}

bool is_identifier(std::string_view name) {
    if (name.empty() || name[0] < 'a' || name[0] > 'z') return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

bool is_field_name(std::string_view name) {
    if (!is_identifier(name) || name.find("__") != std::string_view::npos) return false;
    auto is = [&](std::string_view keyword) { return keyword == name; };
    return std::none_of(std::begin(kCxxKeywords), std::end(kCxxKeywords), is);
}

void JsonNode::fail(std::string_view expected) const { fail(expected, describe_json(*value_)); }

void JsonNode::fail(std::string_view expected, std::string_view got) const {
    throw SpecError(*origin_, pointer_, "expected " + std::string(expected) + ", got " + std::string(got));
}

const JsonNode& JsonNode::expect_object(std::string_view expected) const {
    if (!value_->is_object()) fail(expected);
    return *this;
}

const JsonNode& JsonNode::allow_only_keys(std::initializer_list<std::string_view> keys) const {
    std::vector<std::string> owned(keys.begin(), keys.end());
    return allow_only_keys(owned);
}

const JsonNode& JsonNode::allow_only_keys(std::span<const std::string> keys) const {
    expect_object();
    for (const auto& [key, child] : value_->items()) {
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
        std::string list;
        for (const std::string& k : keys) {
            if (!list.empty()) list += ", ";
            list += k;
        }
        JsonNode(child, json_pointer_child(pointer_, key), *origin_)
            .fail(keys.size() == 1 ? "only the key " + list : "one of the keys " + list,
                  "unknown key " + nlohmann::json(key).dump());
    }
    return *this;
}

std::optional<JsonNode> JsonNode::find(std::string_view key) const {
    expect_object();
    auto it = value_->find(key);
    if (it == value_->end()) return std::nullopt;
    return JsonNode(*it, json_pointer_child(pointer_, key), *origin_);
}

JsonNode JsonNode::require(std::string_view key, std::string_view why) const {
    if (auto child = find(key)) return *child;
    std::string expected = "key \"" + std::string(key) + "\"";
    if (!why.empty()) expected += " (" + std::string(why) + ")";
    fail(expected, "an object without it");
}

std::size_t JsonNode::expect_array(std::string_view expected) const {
    if (!value_->is_array()) fail(expected);
    return value_->size();
}

JsonNode JsonNode::element(std::size_t index) const {
    return JsonNode((*value_)[index], json_pointer_child(pointer_, index), *origin_);
}

std::string JsonNode::as_string() const {
    if (!value_->is_string()) fail("a string");
    return value_->get<std::string>();
}

std::string JsonNode::as_identifier() const {
    if (!value_->is_string() || !is_identifier(value_->get_ref<const std::string&>()))
        fail("an identifier ([a-z][a-z0-9_]*)");
    return value_->get<std::string>();
}

std::string JsonNode::as_field_name() const {
    if (!value_->is_string() || !is_field_name(value_->get_ref<const std::string&>()))
        fail("an identifier ([a-z][a-z0-9_]*, no \"__\", not a C++ keyword)");
    return value_->get<std::string>();
}

double JsonNode::as_number() const {
    if (!value_->is_number()) fail("a number");
    return value_->get<double>();
}

bool JsonNode::as_bool() const {
    if (!value_->is_boolean()) fail("true or false");
    return value_->get<bool>();
}

std::uint64_t JsonNode::as_unsigned(std::string_view expected) const {
    if (value_->is_number_unsigned()) return value_->get<std::uint64_t>();
    if (value_->is_number_float()) {
        const double v = value_->get<double>();
        // 2^64 is the first double above the uint64 range.
        if (v >= 0.0 && v < 18446744073709551616.0 && std::floor(v) == v) return static_cast<std::uint64_t>(v);
    }
    fail(expected);
}

}  // namespace btforge::spec_detail
