#include "host/spec/json_input.h"

#include <algorithm>
#include <iterator>
#include <cmath>
#include <cstdio>
#include <vector>

#include "host/spec/spec_error.h"

namespace btforge::spec_detail {

namespace {

using nlohmann::json;

// A SAX consumer that builds the same DOM as json::parse but sees every key
// as it is read, which is the only point where a repeated key is still
// visible. Containers are reached through pointers into their parents; a
// parent array never grows while one of its children is open, so they stay
// valid.
class CheckedDomBuilder {
public:
    bool null() { return value(nullptr); }
    bool boolean(bool v) { return value(v); }
    bool number_integer(json::number_integer_t v) { return value(v); }
    bool number_unsigned(json::number_unsigned_t v) { return value(v); }
    bool number_float(json::number_float_t v, const json::string_t&) { return value(v); }
    bool string(json::string_t& v) { return value(v); }
    bool binary(json::binary_t& v) { return value(json::binary(v)); }

    bool start_object(std::size_t) { return open(json::value_t::object); }
    bool start_array(std::size_t) { return open(json::value_t::array); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(json::string_t& k) {
        json& object = *open_.back();
        if (object.contains(k)) {
            duplicate_pointer_ = json_pointer_child(open_pointers_.back(), k);
            duplicate_key_ = k;
            return false;
        }
        key_ = k;
        member_ = &object[k];
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const json::exception& error) {
        failed_ = true;
        error_position_ = position;
        error_message_ = error.what();
        return false;
    }

    json& root() { return root_; }
    bool failed() const { return failed_; }
    std::size_t error_position() const { return error_position_; }
    const std::string& error_message() const { return error_message_; }
    const std::optional<std::string>& duplicate_pointer() const { return duplicate_pointer_; }
    const std::string& duplicate_key() const { return duplicate_key_; }

private:
    template <class V>
    json* place(V&& v) {
        if (open_.empty()) {
            root_ = json(std::forward<V>(v));
            return &root_;
        }
        json& parent = *open_.back();
        if (parent.is_array()) {
            parent.emplace_back(std::forward<V>(v));
            return &parent.back();
        }
        *member_ = json(std::forward<V>(v));
        return member_;
    }

    template <class V>
    bool value(V&& v) {
        place(std::forward<V>(v));
        return true;
    }

    bool open(json::value_t kind) {
        std::string pointer;
        if (!open_.empty()) {
            const json& parent = *open_.back();
            pointer = parent.is_array() ? json_pointer_child(open_pointers_.back(), parent.size())
                                        : json_pointer_child(open_pointers_.back(), key_);
        }
        open_.push_back(place(kind));
        open_pointers_.push_back(std::move(pointer));
        return true;
    }

    bool close() {
        open_.pop_back();
        open_pointers_.pop_back();
        return true;
    }

    json root_;
    std::vector<json*> open_;
    std::vector<std::string> open_pointers_;
    json* member_ = nullptr;
    std::string key_;
    bool failed_ = false;
    std::size_t error_position_ = 0;
    std::string error_message_;
    std::optional<std::string> duplicate_pointer_;
    std::string duplicate_key_;
};

SourcePosition position_of_offset(std::string_view text, std::size_t offset) {
    SourcePosition position{1, 1};
    for (std::size_t i = 0; i + 1 < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++position.line;
            position.column = 1;
        } else {
            ++position.column;
        }
    }
    return position;
}

[[noreturn]] void throw_parse_error(std::string_view text, const std::string& origin, std::size_t offset,
                                    std::string message) {
    // nlohmann writes "[json.exception.parse_error.101] parse error at line L,
    // column C: what went wrong"; keep its position (it counts exactly as an
    // editor does) and the explanation, drop the exception id.
    if (auto bracket = message.find("] "); message.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos)
        message.erase(0, bracket + 2);
    SourcePosition position = position_of_offset(text, offset);
    std::size_t line = 0, column = 0;
    int consumed = 0;
    if (std::sscanf(message.c_str(), "parse error at line %zu, column %zu: %n", &line, &column, &consumed) == 2 &&
        consumed > 0) {
        position = {line, column};
        message.erase(0, static_cast<std::size_t>(consumed));
    }
    throw SpecError(origin, position, "invalid JSON: " + message);
}

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
    CheckedDomBuilder builder;
    const bool ok = json::sax_parse(text.begin(), text.end(), &builder);
    if (builder.duplicate_pointer())
        throw SpecError(origin, *builder.duplicate_pointer(),
                        "expected each key at most once in an object, got \"" + builder.duplicate_key() + "\" again");
    if (!ok || builder.failed()) throw_parse_error(text, origin, builder.error_position(), builder.error_message());
    return std::move(builder.root());
}

std::string json_pointer_child(std::string_view parent, std::string_view key) {
    std::string pointer(parent);
    pointer += '/';
    for (char c : key) {
        if (c == '~')
            pointer += "~0";
        else if (c == '/')
            pointer += "~1";
        else
            pointer += c;
    }
    return pointer;
}

std::string json_pointer_child(std::string_view parent, std::size_t index) {
    return std::string(parent) + '/' + std::to_string(index);
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
