#include "host/spec/spec_error.h"

#include <utility>

namespace btforge {

namespace {

std::string locate(const std::string& origin, const std::string& json_pointer, const std::string& message) {
    if (json_pointer.empty()) return origin + ": " + message;
    return origin + ": " + json_pointer + ": " + message;
}

std::string locate(const std::string& origin, SourcePosition position, const std::string& message) {
    return origin + ":" + std::to_string(position.line) + ":" + std::to_string(position.column) + ": " + message;
}

}  // namespace

SpecError::SpecError(std::string origin, std::string json_pointer, std::string message)
    : std::runtime_error(locate(origin, json_pointer, message)),
      origin_(std::move(origin)),
      json_pointer_(std::move(json_pointer)),
      message_(std::move(message)) {}

SpecError::SpecError(std::string origin, SourcePosition position, std::string message)
    : std::runtime_error(locate(origin, position, message)),
      origin_(std::move(origin)),
      position_(position),
      message_(std::move(message)) {}

}  // namespace btforge
