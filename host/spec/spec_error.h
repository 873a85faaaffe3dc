#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace btforge {

// Where invalid JSON text broke, as nlohmann reports it (both 1-based).
struct SourcePosition {
    std::size_t line = 0;
    std::size_t column = 0;
};

// Every problem with a strategy spec, a grid or a parameter assignment.
// what() reads "origin: /json/pointer: expected ..., got ...", or
// "origin:line:column: invalid JSON: ..." for text that is not JSON at all, so
// the user can jump to the entity without reading the program's source.
class SpecError : public std::runtime_error {
public:
    // `json_pointer` is RFC 6901 ("" is the document root and is not printed).
    SpecError(std::string origin, std::string json_pointer, std::string message);
    SpecError(std::string origin, SourcePosition position, std::string message);

    const std::string& origin() const noexcept { return origin_; }
    const std::string& json_pointer() const noexcept { return json_pointer_; }
    const std::optional<SourcePosition>& position() const noexcept { return position_; }
    const std::string& message() const noexcept { return message_; }  // without the location

private:
    std::string origin_;
    std::string json_pointer_;
    std::optional<SourcePosition> position_;
    std::string message_;
};

}  // namespace btforge
