#include "pipeline/modules/row_reading.h"

#include <charconv>

#include "util/error.h"

namespace macroscope::pipeline {

size_t ColumnIndex(const RowBatch& rows, std::string_view column, std::string_view kind) {
  std::string list;
  for (size_t i = 0; i < rows.columns.size(); ++i) {
    if (rows.columns[i] == column) return i;
    list += (i ? ", " : "") + rows.columns[i];
  }
  throw UserError(std::string(kind) + ": no column '" + std::string(column) +
                  "' in the rows it reads (columns: " + list + ")");
}

std::optional<double> CellNumber(const Cell& cell, std::string_view kind, std::string_view column) {
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
  const auto* s = std::get_if<std::string>(&cell);
  if (s == nullptr || s->empty()) return std::nullopt;
  double value = 0;
  auto r = std::from_chars(s->data(), s->data() + s->size(), value);
  if (r.ec != std::errc() || r.ptr != s->data() + s->size())
    throw UserError(std::string(kind) + ": column '" + std::string(column) + "' holds '" + *s +
                    "', which is not a number");
  return value;
}

}  // namespace macroscope::pipeline
