// The project's analyses as SQL table-valued functions (docs/query.md):
// each reads the trace's chunks through its own accumulator and finishes
// into the result table its command prints, so
//
//   SELECT * FROM kernel_processes() ORDER BY running_ns DESC LIMIT 10
//
// gives the rows of `macroscope kernel processes --format csv`. Their
// columns are the analyses' own (the table each makes with nothing read).
#pragma once

#include <sqlite3.h>

#include <span>
#include <string>

#include "analysis/cancellation.h"
#include "model/entity_source.h"
#include "query/query_session.h"
#include "query/rows_table.h"

namespace macroscope::query {

// What `.tables` and the docs say of a function: its name, arguments and
// what it gives.
struct FunctionDoc {
  const char* call;
  const char* doc;
};
std::span<const FunctionDoc> AnalysisFunctions();

// Registers every analysis function on `db` over `source` (which must
// outlive the connection). The functions that read chunks or optimise an
// aggregation stop with analysis::Cancelled once *cancel (read when each
// runs; null: never) is set; stats() and loops() run to their end.
// differential_overview() and profile_diff() open their other trace with
// *open_other (read when they run; null or empty: they refuse) and name the
// trace `name` in their messages.
void RegisterAnalysisFunctions(sqlite3* db, const EntitySource& source, const std::string& name,
                               const analysis::Cancellation* const* cancel, const TraceOpener* open_other = nullptr);

}  // namespace macroscope::query
