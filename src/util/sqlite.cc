#include "util/sqlite.h"

#include <sqlite3.h>

#include <string>

#include "util/error.h"

namespace macroscope::sqlite {

Database::Database(const std::string& path, Mode mode, std::string_view what) : path_(path) {
  const int flags = SQLITE_OPEN_NOMUTEX |
                    (mode == Mode::kReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
                    (mode == Mode::kMemory ? SQLITE_OPEN_URI : 0);  // not SQLITE_OPEN_MEMORY: ATTACH would inherit it
  int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw UserError(path_ + ": cannot open " + std::string(what) + ": " + message);
  }
  sqlite3_extended_result_codes(db_, 1);
}

Database::~Database() {
  if (db_) sqlite3_close(db_);
}

void Database::Exec(std::string_view sql) {
  std::string text(sql);
  char* error = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  if (error) sqlite3_free(error);
  if (rc != SQLITE_OK) Fail(rc, text);
}

int64_t Database::LastInsertId() const { return sqlite3_last_insert_rowid(db_); }

int Database::Changes() const { return sqlite3_changes(db_); }

void Database::Fail(int rc, std::string_view what) const {
  const int primary = rc & 0xff;
  if (primary == SQLITE_NOTADB) throw UserError(path_ + ": not an SQLite database");
  if (primary == SQLITE_CORRUPT)
    throw UserError(path_ + ": the SQLite database is corrupt or truncated (" + sqlite3_errstr(rc) + ")");
  std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  std::string statement(what.substr(0, 60));
  throw UserError(path_ + ": SQLite error: " + message + " (in \"" + statement + "\")");
}

Statement::Statement(Database& db, std::string_view sql) : db_(db), sql_(sql) {
  int rc = sqlite3_prepare_v2(db_.handle(), sql_.c_str(), static_cast<int>(sql_.size()), &stmt_, nullptr);
  if (rc != SQLITE_OK) db_.Fail(rc, sql_);
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::BindInt(int index, int64_t value) {
  int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK) db_.Fail(rc, sql_);
  return *this;
}

Statement& Statement::BindDouble(int index, double value) {
  int rc = sqlite3_bind_double(stmt_, index, value);
  if (rc != SQLITE_OK) db_.Fail(rc, sql_);
  return *this;
}

Statement& Statement::BindText(int index, std::string_view value) {
  int rc = sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK) db_.Fail(rc, sql_);
  return *this;
}

Statement& Statement::BindNull(int index) {
  int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK) db_.Fail(rc, sql_);
  return *this;
}

bool Statement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE) {
    sqlite3_reset(stmt_);
    db_.Fail(rc, sql_);
  }
  return false;
}

void Statement::Run() {
  while (Step()) {
  }
}

void Statement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::IsNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

bool Statement::IsInteger(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_INTEGER; }

int64_t Statement::Int(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::Double(int column) const { return sqlite3_column_double(stmt_, column); }

std::string Statement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  if (!text) return {};
  return std::string(reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

Transaction::Transaction(Database& db) : db_(db) { db_.Exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::Commit() {
  db_.Exec("COMMIT");
  done_ = true;
}

}  // namespace macroscope::sqlite
