// SQL over one trace (docs/query.md): an SQLite connection in memory with
// the trace's tables (schema.h) registered over an EntitySource, so a
// query reads a store on disk chunk by chunk as it reads a trace in
// memory. Each statement's rows come out as the one result table
// (analysis/table.h), in parts, for the table writer or any other reader.
#pragma once

#include <sqlite3.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/table.h"
#include "model/entity_source.h"
#include "util/sqlite.h"

namespace macroscope::query {

class QuerySession {
 public:
  // `source` must outlive the session; `files` is what trace_info says
  // the trace was read from.
  QuerySession(const EntitySource& source, const std::vector<std::string>& files);

  // A statement's rows in parts of at most kPartRows, the same columns in
  // each; `last` on its final part (which may have no rows).
  static constexpr size_t kPartRows = 4096;
  using PartSink = std::function<void(const analysis::Table& part, bool last)>;
  // Runs the statements of `sql` in turn; each that answers with columns
  // (a SELECT, a PRAGMA) hands its rows to `sink`. Throws UserError
  // "SQL:LINE:COLUMN: message" (SQLite's) for a statement SQLite refuses,
  // and the failure's own message for one that fails while it runs (a
  // corrupt chunk: the store's file and the chunk).
  void Run(std::string_view sql, const PartSink& sink);
  // The catalog (docs/catalog.md) as schema `catalog`, read only: saved
  // results and annotations join with the trace. A lock another process
  // holds (a run being recorded) is waited for as the catalog commands
  // wait (catalog::BusyTimeoutMs), here and in the statements that read
  // it. Throws UserError naming the file when SQLite cannot open it.
  void AttachCatalog(const std::string& path);

  // The rows of `sql`'s last statement that answers, whole.
  analysis::Table Query(std::string_view sql);

  sqlite3* handle() const { return db_.handle(); }

 private:
  sqlite::Database db_;
};

}  // namespace macroscope::query
