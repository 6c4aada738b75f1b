#include "analysis/table.h"

#include <charconv>

namespace macroscope::analysis {

std::string CellText(const Cell& cell) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* d = std::get_if<double>(&cell)) {
    char buffer[64];
    auto r = std::to_chars(buffer, buffer + sizeof buffer, *d);
    return std::string(buffer, r.ptr);
  }
  return "";
}

}  // namespace macroscope::analysis
