// The query endpoint (docs/serve.md): a statement of SQL (docs/query.md)
// over one served trace, its rows as JSON for the workbench's query panel,
// its highlights and its filters. The session is the command's (one per
// request, nothing shared), guarded: read only, texts bounded, rows
// capped, stopped when the client goes or the time limit passes.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/cancellation.h"
#include "analysis/table.h"
#include "model/entity_source.h"
#include "query/query_session.h"
#include "server/served_trace.h"

namespace macroscope::server {

// The rows a query answer holds at most, and by default.
inline constexpr size_t kMaxQueryRows = 100000;
inline constexpr size_t kDefaultQueryRows = 10000;

// The rows of the last statement of `sql` that answers, at most
// `max_rows` (`cut` says whether more were left), from a guarded session
// (query/query_session.h) over `source`, which trace_info calls `name`;
// `open_other` opens the `other` of differential_overview() and
// profile_diff() (empty: they refuse).
// Throws UserError "SQL:LINE:COLUMN: message" for SQL SQLite refuses or
// that would do more than read, analysis::Cancelled once `cancel` is set.
analysis::Table QueryRows(const EntitySource& source, const std::string& name, std::string_view sql, size_t max_rows,
                          const analysis::Cancellation* cancel, bool& cut, const query::TraceOpener& open_other = {});

// The `other` trace of a served session: another served trace, named by its
// index in the trace list or its name as the list gives it — never a file
// (a served workbench opens nothing else). UserError saying what `other`
// may be; for a trace still being read, UserError saying so, with
// `loading` set (the endpoint answers 503 then).
query::TraceOpener ServedTraceOpener(const std::vector<std::shared_ptr<const ServedTrace>>& traces, bool& loading);

// {"columns": [names], "rows": [[cells]], "truncated": cut, "time_origin":
// "ticks"}. Integers are JSON numbers up to 2^53 and strings beyond
// (JavaScript's numbers would round them); time_origin is the clock's
// ticks at model time 0 (a whole clock's `ts` less it is the model time
// the other endpoints speak), "0" for decimal times.
std::string QueryJson(const analysis::Table& rows, bool cut, const TimeBase& base);

}  // namespace macroscope::server
