#include "host/data/data_error.h"

#include <utility>

namespace btforge {

namespace {

// `file:line:col: rule: message`, the form compilers use, so editors jump to
// the spot; a location part that does not apply is left out rather than
// printed as 0.
std::string describe(const std::string& file, std::size_t line, std::size_t column, const std::string& rule,
                     const std::string& message) {
    std::string text = file;
    if (line > 0) {
        text += ':' + std::to_string(line);
        if (column > 0) text += ':' + std::to_string(column);
    }
    text += ": " + rule + ": " + message;
    return text;
}

}  // namespace

DataError::DataError(std::string file, std::size_t line, std::size_t column, std::string rule, std::string message)
    : std::runtime_error(describe(file, line, column, rule, message)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      rule_(std::move(rule)),
      message_(std::move(message)) {}

}  // namespace btforge
