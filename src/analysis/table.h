// The one result table: what every analysis finishes into, whoever asked
// (a command prints it with the table writer, a workflow module sends it
// on as rows, the server answers it as JSON, a query reads it). Named
// columns, cells that are empty, integers, numbers or text, row-major.
//
// A workflow's row stream carries tables too (pipeline::RowBatch): a
// stream's batches are parts of one table, the same columns in each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace macroscope::analysis {

using Cell = std::variant<std::monostate, int64_t, double, std::string>;

struct Table {
  std::vector<std::string> columns;  // names, in order
  std::vector<Cell> cells;           // row-major: rows() * columns.size()

  Table() = default;
  explicit Table(std::vector<std::string> names) : columns(std::move(names)) {}

  size_t rows() const { return columns.empty() ? 0 : cells.size() / columns.size(); }
  const Cell& at(size_t row, size_t column) const { return cells[row * columns.size() + column]; }
  void Clear() { cells.clear(); }

  // Building: a row's cells in column order, one call each.
  void Put(int64_t value) { cells.emplace_back(std::in_place_type<int64_t>, value); }
  void Put(uint64_t value) { Put(static_cast<int64_t>(value)); }
  void Put(int value) { Put(static_cast<int64_t>(value)); }
  void Put(double value) { cells.emplace_back(std::in_place_type<double>, value); }
  void Put(std::string_view text) { cells.emplace_back(std::in_place_type<std::string>, text); }
  void Put(const char* text) { Put(std::string_view(text)); }
  void Put(const std::string& text) { Put(std::string_view(text)); }
  void PutEmpty() { cells.emplace_back(); }
  void Put(const Cell& cell) { cells.push_back(cell); }
};

// "" for an empty cell, integers as they are, other numbers in the
// shortest form that reads back to the same double.
std::string CellText(const Cell& cell);

}  // namespace macroscope::analysis
