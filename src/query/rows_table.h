// A table made by a function (an analysis, the trace's description) as an
// eponymous SQLite virtual table: `SELECT * FROM name(arg, …)` runs the
// function with its arguments (SQLite's table-valued functions: they are
// hidden columns) and reads its result table (analysis/table.h). A
// statement that reads it again with the same arguments (a join) reads the
// rows made the first time; two calls with other arguments in one
// statement each read their own.
#pragma once

#include <sqlite3.h>

#include <functional>
#include <string>
#include <vector>

#include "analysis/table.h"

namespace macroscope::query {

struct RowsTableSpec {
  std::string name;
  // Its result columns, as declared ("kind TEXT" or a quoted name), then
  // its arguments' names (a default each below).
  std::vector<std::string> columns;
  std::vector<std::string> arguments;
  std::vector<analysis::Cell> defaults;  // an argument's value when the call leaves it out
  // The rows for the arguments' values; their columns are `columns`'
  // number, in order.
  std::function<analysis::Table(const std::vector<analysis::Cell>& arguments)> rows;
};

// Registers the table on `db` (whatever `rows` uses must outlive the
// connection).
void RegisterRowsTable(sqlite3* db, RowsTableSpec spec);

}  // namespace macroscope::query
