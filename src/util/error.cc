#include "util/error.h"

namespace macroscope {

std::string MessageAt(std::string_view file, uint64_t line, std::string_view message) {
  std::string text(file);
  text += ':';
  text += std::to_string(line);
  text += ": ";
  text += message;
  return text;
}

void ThrowAt(std::string_view file, uint64_t line, std::string_view message) {
  throw UserError(MessageAt(file, line, message));
}

}  // namespace macroscope
