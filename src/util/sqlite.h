// A small RAII wrapper over SQLite's C API (Debian's libsqlite3): a
// connection, prepared statements, and IMMEDIATE transactions. Every SQLite
// failure becomes a UserError whose message starts with the database file
// name. The catalog (src/catalog) refines its messages and opening; readers
// of SQLite trace files (src/formats/nsys) open files read-only with it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace macroscope::sqlite {

class Database {
 public:
  enum class Mode {
    kReadOnly,         // an existing file, never written (a trace)
    kReadWriteCreate,  // created if needed (the catalog)
    kMemory,           // in memory (`path` ":memory:"), "file:" URIs allowed in ATTACH (a query's)
  };
  // Opens `path`. Throws UserError "PATH: cannot open WHAT: reason", `what`
  // saying what the file is to the user ("the catalog").
  Database(const std::string& path, Mode mode, std::string_view what);
  virtual ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more statements without results.
  void Exec(std::string_view sql);
  int64_t LastInsertId() const;
  int Changes() const;
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }

  // Throws the UserError for result code `rc`; `what` is the statement that
  // failed. The generic messages name the file and SQLite's reason; a
  // subclass may say more (the catalog: locks, "not a macroscope catalog").
  [[noreturn]] virtual void Fail(int rc, std::string_view what) const;

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

class Statement {
 public:
  Statement(Database& db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are numbered from 1, as in SQLite.
  Statement& BindInt(int index, int64_t value);
  Statement& BindDouble(int index, double value);
  Statement& BindText(int index, std::string_view value);
  Statement& BindNull(int index);
  // True while a row is available; false when done.
  bool Step();
  // Steps to completion (for statements without results).
  void Run();
  void Reset();

  // Columns are numbered from 0, as in SQLite.
  bool IsNull(int column) const;
  // True when the column holds an integer (not NULL, text, a real or a blob).
  bool IsInteger(int column) const;
  int64_t Int(int column) const;
  double Double(int column) const;
  std::string Text(int column) const;

 private:
  Database& db_;
  std::string sql_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE on construction (takes the write lock up front, so a
// writer never fails half-way on a lock upgrade); rolls back unless
// Commit() was called.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void Commit();

 private:
  Database& db_;
  bool done_ = false;
};

}  // namespace macroscope::sqlite
