// Reading the rows a module receives: columns found by name (a missing
// one is the user's error, named with the columns there are), cells as
// numbers (as text: analysis::CellText).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pipeline/stream_types.h"

namespace macroscope::pipeline {

// The position of `column` in `rows`' columns. Throws UserError
// "KIND: no column 'x' in the rows it reads (columns: a, b)".
size_t ColumnIndex(const RowBatch& rows, std::string_view column, std::string_view kind);

// The cell as a number; nothing for an empty cell. Text is read as a
// number when it is one; other text throws UserError naming `kind` and
// `column`.
std::optional<double> CellNumber(const Cell& cell, std::string_view kind, std::string_view column);

// Groups of rows named by a column's text (a chart's boxes, its lines),
// numbered in order of first appearance.
class RowGroups {
 public:
  size_t Number(const std::string& name) {
    auto [it, added] = numbers_.try_emplace(name, names_.size());
    if (added) names_.push_back(name);
    return it->second;
  }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::unordered_map<std::string, size_t> numbers_;
  std::vector<std::string> names_;
};

}  // namespace macroscope::pipeline
