// The columns every difference table of two runs shares (docs/compare.md):
// for each measure, its value in A, in B, B - A and B / A (empty when A's
// is 0), rows sorted by the absolute difference of one measure, largest
// first, then by their keys.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/profile.h"
#include "analysis/table.h"
#include "model/trace.h"

namespace macroscope::analysis::compare {

struct DiffMeasure {
  std::string name;  // "inclusive"
  std::string unit;  // a column suffix: "_ns", or "" for counts
};

struct DiffRow {
  std::vector<Cell> keys;      // the key columns' cells (empty cells allowed)
  std::vector<int64_t> a, b;   // per measure (empty: 0 in every measure)
};

// Key columns, then per measure NAME_a UNIT, NAME_b UNIT, NAME_diff UNIT,
// NAME_ratio ("inclusive_a_ns", "calls_diff", "inclusive_ratio"); rows
// sorted by |b - a| of measure `sort_by`, largest first, then by keys.
Table DiffTable(const std::vector<std::string>& key_columns, const std::vector<DiffMeasure>& measures, size_t sort_by,
                std::vector<DiffRow> rows);

// The profile's measures: calls, inclusive (ns), exclusive (ns).
const std::vector<DiffMeasure>& ProfileMeasures();
// A profile sum as those measures: calls, and its times in ns of `trace`
// (each exact sum rounded once).
std::vector<int64_t> ProfileValues(const Trace& trace, const FunctionSums& sums);

}  // namespace macroscope::analysis::compare
