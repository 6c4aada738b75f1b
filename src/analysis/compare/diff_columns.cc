#include "analysis/compare/diff_columns.h"

#include <algorithm>
#include <cstdlib>

namespace macroscope::analysis::compare {

namespace {

int64_t At(const std::vector<int64_t>& values, size_t i) { return i < values.size() ? values[i] : 0; }

bool KeysBefore(const std::vector<Cell>& x, const std::vector<Cell>& y) {
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    const std::string tx = CellText(x[i]), ty = CellText(y[i]);
    if (tx != ty) return tx < ty;
  }
  return x.size() < y.size();
}

}  // namespace

Table DiffTable(const std::vector<std::string>& key_columns, const std::vector<DiffMeasure>& measures, size_t sort_by,
                std::vector<DiffRow> rows) {
  std::vector<std::string> columns = key_columns;
  for (const DiffMeasure& m : measures) {
    for (const char* part : {"_a", "_b", "_diff"}) columns.push_back(m.name + part + m.unit);
    columns.push_back(m.name + "_ratio");
  }
  std::sort(rows.begin(), rows.end(), [&](const DiffRow& x, const DiffRow& y) {
    const int64_t dx = std::abs(At(x.b, sort_by) - At(x.a, sort_by)), dy = std::abs(At(y.b, sort_by) - At(y.a, sort_by));
    if (dx != dy) return dx > dy;
    return KeysBefore(x.keys, y.keys);
  });
  Table table(std::move(columns));
  for (const DiffRow& row : rows) {
    for (size_t k = 0; k < key_columns.size(); ++k) {
      if (k < row.keys.size()) {
        table.Put(row.keys[k]);
      } else {
        table.PutEmpty();
      }
    }
    for (size_t m = 0; m < measures.size(); ++m) {
      const int64_t a = At(row.a, m), b = At(row.b, m);
      table.Put(a);
      table.Put(b);
      table.Put(b - a);
      if (a == 0) {
        table.PutEmpty();
      } else {
        table.Put(static_cast<double>(b) / static_cast<double>(a));
      }
    }
  }
  return table;
}

const std::vector<DiffMeasure>& ProfileMeasures() {
  static const std::vector<DiffMeasure> measures = {{"calls", ""}, {"inclusive", "_ns"}, {"exclusive", "_ns"}};
  return measures;
}

std::vector<int64_t> ProfileValues(const Trace& trace, const FunctionSums& sums) {
  return {static_cast<int64_t>(sums.calls), DurationNanoseconds(trace.time_base(), sums.inclusive),
          DurationNanoseconds(trace.time_base(), sums.exclusive)};
}

}  // namespace macroscope::analysis::compare
