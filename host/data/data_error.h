#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace btforge {

// A rejected input file. The location is as precise as the format allows:
// line and column are 1-based (column = field number in a CSV row) and 0 when
// they do not apply, e.g. for a whole-file problem or a JSON value whose
// position the parser does not keep (the message then starts with its JSON
// path). rule() is a short, stable kebab-case id (`unsorted-timestamps`,
// `high-below-low`, ...) that tests and tools match on; the message is for
// people and may change.
class DataError : public std::runtime_error {
public:
    DataError(std::string file, std::size_t line, std::size_t column, std::string rule, std::string message);

    const std::string& file() const { return file_; }
    std::size_t line() const { return line_; }
    std::size_t column() const { return column_; }
    const std::string& rule() const { return rule_; }
    const std::string& message() const { return message_; }

private:
    std::string file_;
    std::size_t line_;
    std::size_t column_;
    std::string rule_;
    std::string message_;
};

}  // namespace btforge
