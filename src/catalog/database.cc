#include "catalog/database.h"

#include <sqlite3.h>

#include <cstdlib>
#include <string>

#include "util/error.h"

namespace macroscope::catalog {

int BusyTimeoutMs() {
  if (const char* env = std::getenv("MACROSCOPE_CATALOG_TIMEOUT_MS")) {
    char* end = nullptr;
    long value = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && value >= 0 && value <= 3600 * 1000) return static_cast<int>(value);
  }
  return 5000;
}

Database::Database(const std::string& path, int busy_timeout_ms)
    : sqlite::Database(path, Mode::kReadWriteCreate, "the catalog"), busy_timeout_ms_(busy_timeout_ms) {
  sqlite3_busy_timeout(handle(), busy_timeout_ms_);
  // Reading the journal mode is the first access to the file: a file that
  // is not SQLite fails here with SQLITE_NOTADB. (A failure here closes the
  // connection: the base class is already built.)
  RetryWhileBusy(busy_timeout_ms_, [this] {
    Statement mode(*this, "PRAGMA journal_mode = WAL");
    if (mode.Step() && mode.Text(0) != "wal")
      throw UserError(this->path() + ": cannot switch the catalog to WAL mode (journal mode is " + mode.Text(0) + ")");
  });
  Exec("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL");
}

void Database::Fail(int rc, std::string_view what) const {
  const int primary = rc & 0xff;
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
    throw BusyError(path() + ": the catalog is locked by another process (waited " +
                    std::to_string(busy_timeout_ms_) + " ms); try again later");
  if (primary == SQLITE_NOTADB) throw UserError(path() + ": not a macroscope catalog (not an SQLite database)");
  if (primary == SQLITE_CORRUPT) throw UserError(path() + ": the catalog is corrupt (" + sqlite3_errstr(rc) + ")");
  if (primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_PERM)
    throw UserError(path() + ": cannot write the catalog (" + std::string(sqlite3_errmsg(handle())) + ")");
  std::string message = handle() ? sqlite3_errmsg(handle()) : sqlite3_errstr(rc);
  std::string statement(what.substr(0, 60));
  throw UserError(path() + ": catalog error: " + message + " (in \"" + statement + "\")");
}

}  // namespace macroscope::catalog
