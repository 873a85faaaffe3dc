#include "host/json/checked_json.h"

#include "host/io/input_file.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

namespace btforge {

namespace {

using nlohmann::json;

std::string locate(const std::string& origin, std::size_t line, std::size_t column, const std::string& json_pointer,
                   const std::string& message) {
    if (line > 0) return origin + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message;
    if (json_pointer.empty()) return origin + ": " + message;
    return origin + ": " + json_pointer + ": " + message;
}

// A SAX consumer that builds the same DOM as json::parse but sees every
// event as it is read: a repeated key is only visible while its object is
// being read, and a too-deep container must be refused before anything below
// it is built. Containers are reached through pointers into their parents; a
// parent array never grows while one of its children is open, so they stay
// valid. The JSON pointer of the current position is only put together when
// an error needs it, so the reader keeps no per-level strings beyond the keys
// on the open path.
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
        Frame& frame = open_.back();
        if (frame.container->contains(k)) {
            duplicate_pointer_ = json_pointer_child(pointer_of_open_container(), k);
            duplicate_key_ = k;
            return false;
        }
        frame.key = k;
        member_ = &(*frame.container)[k];
        return true;
    }

    bool parse_error(std::size_t position, const std::string& last_token, const json::exception& error) {
        failed_ = true;
        error_position_ = position;
        error_token_ = last_token;
        error_id_ = error.id;
        error_message_ = error.what();
        return false;
    }

    json& root() { return root_; }
    bool failed() const { return failed_; }
    bool too_deep() const { return too_deep_; }
    std::size_t error_position() const { return error_position_; }
    const std::string& error_token() const { return error_token_; }
    int error_id() const { return error_id_; }
    const std::string& error_message() const { return error_message_; }
    const std::optional<std::string>& duplicate_pointer() const { return duplicate_pointer_; }
    const std::string& duplicate_key() const { return duplicate_key_; }

private:
    struct Frame {
        json* container;
        std::string key;  // objects: the key of the member being read
    };

    template <class V>
    json* place(V&& v) {
        if (open_.empty()) {
            root_ = json(std::forward<V>(v));
            return &root_;
        }
        json& parent = *open_.back().container;
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
        if (open_.size() == kMaxJsonDepth) {
            too_deep_ = true;
            return false;
        }
        open_.push_back(Frame{place(kind), {}});
        return true;
    }

    bool close() {
        open_.pop_back();
        return true;
    }

    // The pointer of the innermost open container: each open container is
    // the last element of its parent array, or the member of its parent
    // object under that frame's current key.
    std::string pointer_of_open_container() const {
        std::string pointer;
        for (std::size_t i = 0; i + 1 < open_.size(); ++i) {
            const json& parent = *open_[i].container;
            pointer = parent.is_array() ? json_pointer_child(pointer, parent.size() - 1)
                                        : json_pointer_child(pointer, open_[i].key);
        }
        return pointer;
    }

    json root_;
    std::vector<Frame> open_;
    json* member_ = nullptr;
    bool failed_ = false;
    bool too_deep_ = false;
    std::size_t error_position_ = 0;
    std::string error_token_;
    int error_id_ = 0;
    std::string error_message_;
    std::optional<std::string> duplicate_pointer_;
    std::string duplicate_key_;
};

struct LineColumn {
    std::size_t line = 1;
    std::size_t column = 1;
};

// 1-based line and column of the byte at `offset`, counted as nlohmann and
// editors count them (a byte is a column).
LineColumn line_column_of(std::string_view text, std::size_t offset) {
    LineColumn at;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++at.line;
            at.column = 1;
        } else {
            ++at.column;
        }
    }
    return at;
}

// The offset of the first '[' or '{' that opens level `depth` + 1. Called
// only after the parser stopped there, so everything before it is valid
// JSON and brackets inside strings are the only ones to skip.
std::size_t offset_of_first_container_below(std::string_view text, std::size_t depth) {
    std::size_t level = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++level > depth) return i;
        } else if (c == ']' || c == '}') {
            --level;
        }
    }
    return text.size();
}

[[noreturn]] void throw_parse_error(std::string_view text, const std::string& origin, const CheckedDomBuilder& builder) {
    // nlohmann's parser checks every float it reads and reports an overflow
    // (1e999) as out_of_range.406 with the position just after the number,
    // whose text is the last token.
    if (builder.error_id() == 406) {
        const std::string& number = builder.error_token();
        const std::size_t end = builder.error_position();
        const LineColumn at = line_column_of(text, end >= number.size() ? end - number.size() : 0);
        throw JsonInputError(origin, at.line, at.column, "", "number-out-of-range",
                             "expected a number of magnitude at most 1.7976931348623157e308 (the double range), got " +
                                 number);
    }
    // nlohmann writes "[json.exception.parse_error.101] parse error at line L,
    // column C: what went wrong"; keep its position (it counts exactly as an
    // editor does) and the explanation, drop the exception id.
    std::string message = builder.error_message();
    if (auto bracket = message.find("] "); message.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos)
        message.erase(0, bracket + 2);
    LineColumn at = line_column_of(text, builder.error_position() > 0 ? builder.error_position() - 1 : 0);
    std::size_t line = 0, column = 0;
    int consumed = 0;
    if (std::sscanf(message.c_str(), "parse error at line %zu, column %zu: %n", &line, &column, &consumed) == 2 &&
        consumed > 0) {
        at = {line, column};
        message.erase(0, static_cast<std::size_t>(consumed));
    }
    throw JsonInputError(origin, at.line, at.column, "", "bad-json", "invalid JSON: " + message);
}

std::string size_limit_text() {
    return "at most 64 MiB (" + std::to_string(kMaxJsonDocumentBytes) + " bytes)";
}

}  // namespace

JsonInputError::JsonInputError(std::string origin, std::size_t line, std::size_t column, std::string json_pointer,
                               std::string rule, std::string message)
    : std::runtime_error(locate(origin, line, column, json_pointer, message)),
      origin_(std::move(origin)),
      line_(line),
      column_(column),
      json_pointer_(std::move(json_pointer)),
      rule_(std::move(rule)),
      message_(std::move(message)) {}

json parse_checked_json(std::string_view text, const std::string& origin) {
    static_assert(kMaxJsonDocumentBytes == std::size_t{64} << 20, "size_limit_text() says 64 MiB");
    if (text.size() > kMaxJsonDocumentBytes)
        throw JsonInputError(origin, 0, 0, "", "too-large",
                             "expected a JSON document of " + size_limit_text() + ", got " +
                                 std::to_string(text.size()) + " bytes");
    CheckedDomBuilder builder;
    const bool ok = json::sax_parse(text.begin(), text.end(), &builder);
    if (builder.duplicate_pointer())
        throw JsonInputError(origin, 0, 0, *builder.duplicate_pointer(), "duplicate-key",
                             "expected each key at most once in an object, got " + json(builder.duplicate_key()).dump() +
                                 " again");
    if (builder.too_deep()) {
        const LineColumn at = line_column_of(text, offset_of_first_container_below(text, kMaxJsonDepth));
        throw JsonInputError(origin, at.line, at.column, "", "too-deep",
                             "expected arrays and objects nested at most " + std::to_string(kMaxJsonDepth) +
                                 " levels deep, got a deeper one here");
    }
    if (!ok || builder.failed()) throw_parse_error(text, origin, builder);
    return std::move(builder.root());
}

std::string read_json_file(const std::filesystem::path& file, const std::string& origin) {
    // Note [Reading input files]: the kind and the size are checked before a
    // byte is read; a stream is refused the moment it passes the limit.
    try {
        return read_input_file(file, "JSON file", kMaxJsonDocumentBytes, InputStreaming::allowed);
    } catch (const InputFileError& e) {
        if (e.rule() == "too-large")
            throw JsonInputError(origin, 0, 0, "", "too-large",
                                 "expected a JSON document of " + size_limit_text() + ", got a larger file");
        throw JsonInputError(origin, 0, 0, "", e.rule(), e.message());
    }
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
    std::string pointer(parent);
    pointer += '/';
    pointer += std::to_string(index);
    return pointer;
}

}  // namespace btforge
