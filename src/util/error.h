// Errors that cross module boundaries.
//
// A UserError is a problem with the user's input (a file, an option): the
// CLI prints its message on one line and exits 1. Anything else that escapes
// to the CLI edge is an internal error (exit 2). Exceptions never cross the
// CLI or HTTP edge.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace macroscope {

class UserError : public std::runtime_error {
 public:
  explicit UserError(const std::string& message) : std::runtime_error(message) {}
};

// "file:line: message", the form every reader uses for bad input.
std::string MessageAt(std::string_view file, uint64_t line, std::string_view message);
[[noreturn]] void ThrowAt(std::string_view file, uint64_t line, std::string_view message);

}  // namespace macroscope
