#include "util/error.h"

namespace macroscope {

void ThrowAt(std::string_view file, uint64_t line, std::string_view message) {
  std::string text(file);
  text += ':';
  text += std::to_string(line);
  text += ": ";
  text += message;
  throw UserError(text);
}

}  // namespace macroscope
