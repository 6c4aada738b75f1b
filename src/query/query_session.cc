#include "query/query_session.h"

#include <memory>
#include <string>
#include <vector>

#include "catalog/database.h"
#include "query/analysis_functions.h"
#include "query/description_tables.h"
#include "query/entity_tables.h"
#include "util/error.h"

namespace macroscope::query {

namespace {

// "SQL:LINE:COLUMN: " of byte `offset` of `sql` (lines and columns from 1).
std::string PlaceIn(std::string_view sql, size_t offset) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < sql.size(); ++i) {
    if (sql[i] == '\n') ++line, column = 1;
    else ++column;
  }
  return "SQL:" + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

analysis::Cell CellOf(sqlite3_stmt* stmt, int column) {
  switch (sqlite3_column_type(stmt, column)) {
    case SQLITE_INTEGER: return static_cast<int64_t>(sqlite3_column_int64(stmt, column));
    case SQLITE_FLOAT: return sqlite3_column_double(stmt, column);
    case SQLITE_NULL: return {};
    default: {  // text, and a blob's bytes as text
      const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, column));
      return std::string(bytes ? bytes : "", static_cast<size_t>(sqlite3_column_bytes(stmt, column)));
    }
  }
}

}  // namespace

QuerySession::QuerySession(const EntitySource& source, const std::vector<std::string>& files)
    : db_(":memory:", sqlite::Database::Mode::kMemory, "the query's database") {
  std::string names;
  for (const std::string& f : files) names += (names.empty() ? "" : " ") + f;
  RegisterDescriptionTables(db_.handle(), source, names);
  RegisterEntityTables(db_.handle(), source);
  RegisterAnalysisFunctions(db_.handle(), source, names, &cancel_, &open_other_);
}

bool QuerySession::Run(std::string_view sql, const PartSink& sink, size_t max_rows) {
  sqlite3* db = db_.handle();
  const char* const begin = sql.data();
  const char* const end = begin + sql.size();
  const char* next = begin;
  while (next < end) {
    sqlite3_stmt* raw = nullptr;
    const char* tail = nullptr;
    const int rc = sqlite3_prepare_v2(db, next, static_cast<int>(end - next), &raw, &tail);
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> stmt(raw, sqlite3_finalize);
    if (rc != SQLITE_OK) {
      const int offset = sqlite3_error_offset(db);
      const size_t at = static_cast<size_t>(next - begin) + static_cast<size_t>(offset < 0 ? 0 : offset);
      throw UserError(PlaceIn(sql, at) + sqlite3_errmsg(db));
    }
    next = tail ? tail : end;
    if (!stmt) continue;  // white space or a comment
    const int columns = sqlite3_column_count(stmt.get());
    analysis::Table part;
    for (int c = 0; c < columns; ++c) part.columns.emplace_back(sqlite3_column_name(stmt.get(), c));
    for (size_t rows = 0;; ++rows) {
      const int step = sqlite3_step(stmt.get());
      if (step == SQLITE_DONE) break;
      // Stopped: by the progress handler (SQLITE_INTERRUPT), or inside a
      // table function, which reports it as its error.
      if (step != SQLITE_ROW && cancel_ != nullptr && cancel_->cancelled()) throw analysis::Cancelled();
      // A failure while it runs: SQLite's own, or a table's, which names
      // its file (a corrupt chunk of a store).
      if (step != SQLITE_ROW) throw UserError(sqlite3_errmsg(db));
      if (rows == max_rows) {
        sink(part, true);
        return true;
      }
      for (int c = 0; c < columns; ++c) part.cells.push_back(CellOf(stmt.get(), c));
      if (part.rows() == kPartRows) {
        sink(part, false);
        part.Clear();
      }
    }
    if (columns > 0) sink(part, true);
  }
  return false;
}

void QuerySession::Guard(const analysis::Cancellation* cancel) {
  sqlite3* db = db_.handle();
  cancel_ = cancel;
  // Polled every thousand virtual machine steps: a statement that runs
  // long (a scan, a recursive CTE) stops within a millisecond or so.
  if (cancel != nullptr)
    sqlite3_progress_handler(
        db, 1000, [](void* c) { return static_cast<const analysis::Cancellation*>(c)->cancelled() ? 1 : 0; },
        const_cast<analysis::Cancellation*>(cancel));
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, kGuardedLength);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_set_authorizer(
      db,
      [](void*, int action, const char* table, const char*, const char* database, const char*) {
        switch (action) {
          case SQLITE_SELECT:
          case SQLITE_READ:
          case SQLITE_FUNCTION:
          case SQLITE_RECURSIVE:
            return SQLITE_OK;
          case SQLITE_UPDATE:
            // A table of ours declared on first use (SQLite's own check
            // of its schema table), never a statement's.
            return std::string_view(table ? table : "") == "sqlite_master" &&
                           std::string_view(database ? database : "") == "main"
                       ? SQLITE_OK
                       : SQLITE_DENY;
          default:
            return SQLITE_DENY;
        }
      },
      nullptr);
}

void QuerySession::AttachCatalog(const std::string& path) {
  // A URI, read only; '%', '?' and '#' in the path escaped as URIs want.
  std::string uri = "file:";
  for (const char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      static constexpr char kHex[] = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[static_cast<unsigned char>(c) >> 4];
      uri += kHex[c & 15];
    } else {
      uri += c;
    }
  }
  const int busy_timeout_ms = catalog::BusyTimeoutMs();
  sqlite3_busy_timeout(db_.handle(), busy_timeout_ms);
  // Some lock conflicts (a writer switching a new catalog to WAL) are
  // reported at once, without waiting: those are tried again.
  catalog::RetryWhileBusy(busy_timeout_ms, [&] {
    sqlite::Statement attach(db_, "ATTACH DATABASE ? AS catalog");
    try {
      attach.BindText(1, uri + "?mode=ro").Run();
    } catch (const UserError&) {
      const int primary = sqlite3_errcode(db_.handle()) & 0xff;
      if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
        throw catalog::BusyError(path + ": the catalog is locked by another process (waited " +
                                 std::to_string(busy_timeout_ms) + " ms); try again later");
      throw UserError(path + ": cannot open the catalog (read only): " + sqlite3_errmsg(db_.handle()));
    }
  });
}

analysis::Table QuerySession::Query(std::string_view sql, size_t max_rows, bool* cut) {
  analysis::Table whole;
  bool done = true;
  const bool rows_cut = Run(
      sql,
      [&](const analysis::Table& part, bool last) {
        if (done) whole = analysis::Table(part.columns);  // a new statement's first part
        whole.cells.insert(whole.cells.end(), part.cells.begin(), part.cells.end());
        done = last;
      },
      max_rows);
  if (cut != nullptr) *cut = rows_cut;
  return whole;
}

}  // namespace macroscope::query
