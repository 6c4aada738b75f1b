// A result table (analysis/table.h) as an eponymous SQLite virtual table:
// the trace's description (description_tables.h), and what an analysis
// finishes into. Its rows are made when a statement first opens it, once
// per connection.
#pragma once

#include <sqlite3.h>

#include <functional>

#include "analysis/table.h"
#include "query/schema.h"

namespace macroscope::query {

// Registers `spec` (which must outlive the connection) on `db`, its rows
// made by `rows`, whose columns are the spec's, in order.
void RegisterRowsTable(sqlite3* db, const TableSpec& spec, std::function<analysis::Table()> rows);

// A cell as SQLite's result: NULL, INTEGER, REAL or TEXT (copied).
void ResultCell(sqlite3_context* ctx, const analysis::Cell& cell);

}  // namespace macroscope::query
