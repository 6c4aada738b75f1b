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

#include "analysis/cancellation.h"
#include "analysis/table.h"
#include "model/entity_source.h"
#include "util/sqlite.h"

namespace macroscope::query {

// Opens the trace named `name` (a file) for a function that compares the
// session's trace with another (differential_overview()); the source stays
// valid as long as the opener. Throws UserError naming the file.
using TraceOpener = std::function<const EntitySource&(const std::string& name)>;

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
  // A statement stops after `max_rows` rows: Run then returns true (the
  // rows were cut), the statements after it not run.
  static constexpr size_t kAllRows = static_cast<size_t>(-1);
  bool Run(std::string_view sql, const PartSink& sink, size_t max_rows = kAllRows);
  // The catalog (docs/catalog.md) as schema `catalog`, read only: saved
  // results and annotations join with the trace. A lock another process
  // holds (a run being recorded) is waited for as the catalog commands
  // wait (catalog::BusyTimeoutMs), here and in the statements that read
  // it. Throws UserError naming the file when SQLite cannot open it.
  void AttachCatalog(const std::string& path);

  // For a session that answers others (the server's query endpoint):
  // statements may only read (no ATTACH, no PRAGMA, nothing written, the
  // refusal SQLite's "not authorized" at the statement's place), a text or
  // blob made is at most kGuardedLength bytes, and a statement stops with
  // analysis::Cancelled soon after `cancel` is set (null: never).
  static constexpr int kGuardedLength = 16 << 20;
  void Guard(const analysis::Cancellation* cancel);

  // The rows of `sql`'s last statement that answers, at most `max_rows`
  // of them; `cut` (when given) says whether rows were left out.
  analysis::Table Query(std::string_view sql, size_t max_rows = kAllRows, bool* cut = nullptr);

  // How differential_overview(other, …) opens `other`; without one, it
  // says so (the server's sessions).
  void SetTraceOpener(TraceOpener opener) { open_other_ = std::move(opener); }

  sqlite3* handle() const { return db_.handle(); }

 private:
  sqlite::Database db_;
  const analysis::Cancellation* cancel_ = nullptr;
  TraceOpener open_other_;
};

}  // namespace macroscope::query
