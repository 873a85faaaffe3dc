#pragma once

// The one reader of btforge's JSON input files: strategy specs, grids and
// instruments files all go through parse_checked_json, so the rules below
// hold for all three and live only here.

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace btforge {

// Note [Checked JSON documents]
// nlohmann::json accepts what btforge must not: it silently keeps the last of
// repeated keys, and it takes any depth and any size, so a pathological file
// costs memory and time without bound. parse_checked_json adds four rules:
//   - too-large: a document holds at most kMaxJsonDocumentBytes bytes (64 MiB:
//     a grid list of about seven million short numbers still fits). The DOM
//     costs at most about 35 bytes per byte of text, so this bounds the
//     memory of a parse (measured peak: 2.3 GB for 64 MiB of `[{},{},...]`,
//     80 MB for a grid listing 2^20 numbers), and every step of the parse is
//     linear in the text.
//   - too-deep: arrays and objects nest at most kMaxJsonDepth levels (64;
//     btforge's own documents need 4). The 65th opening bracket is reported
//     at its line and column, before anything below it is read.
//   - number-out-of-range: a number must be a finite double (|x| <= 1.8e308);
//     1e999 is reported at its line and column instead of turning into inf.
//   - duplicate-key: an object names each key at most once, reported at the
//     repeated key's JSON pointer.
// Text that is not JSON at all is bad-json, at nlohmann's line and column.
inline constexpr std::size_t kMaxJsonDocumentBytes = std::size_t{64} << 20;
inline constexpr std::size_t kMaxJsonDepth = 64;

// A JSON document that broke a rule of Note [Checked JSON documents], or a
// file that could not be read. Located either by line and column (both
// 1-based; 0 when not known) or by JSON pointer ("" when the location is the
// whole document). Callers turn it into their own error type (SpecError,
// DataError); what() reads "origin:line:column: message" or
// "origin: /pointer: message" so an untranslated one still says where.
class JsonInputError : public std::runtime_error {
public:
    JsonInputError(std::string origin, std::size_t line, std::size_t column, std::string json_pointer,
                   std::string rule, std::string message);

    const std::string& origin() const noexcept { return origin_; }
    std::size_t line() const noexcept { return line_; }
    std::size_t column() const noexcept { return column_; }
    const std::string& json_pointer() const noexcept { return json_pointer_; }
    // Stable kebab-case id: cannot-read, not-a-regular-file (Note [Reading
    // input files]), too-large, bad-json, too-deep, number-out-of-range,
    // duplicate-key.
    const std::string& rule() const noexcept { return rule_; }
    // Without the location: "expected ..., got ..." or "invalid JSON: ...".
    const std::string& message() const noexcept { return message_; }

private:
    std::string origin_;
    std::size_t line_;
    std::size_t column_;
    std::string json_pointer_;
    std::string rule_;
    std::string message_;
};

// Parses strict JSON under the rules of Note [Checked JSON documents];
// `origin` names the source in errors. Throws JsonInputError.
nlohmann::json parse_checked_json(std::string_view text, const std::string& origin);

// Reads a whole file of at most kMaxJsonDocumentBytes through Note [Reading
// input files]: a larger regular file is refused before it is read, a
// stream once it passes the limit, a directory or device at once. Throws
// JsonInputError with rule cannot-read, not-a-regular-file or too-large;
// `origin` names the file in errors.
std::string read_json_file(const std::filesystem::path& file, const std::string& origin);

// RFC 6901 pointer of a member or an element of the value at `parent`
// ("" is the root): '~' and '/' inside a key are escaped as ~0 and ~1.
std::string json_pointer_child(std::string_view parent, std::string_view key);
std::string json_pointer_child(std::string_view parent, std::size_t index);

}  // namespace btforge
