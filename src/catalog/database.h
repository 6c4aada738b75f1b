// A small RAII wrapper over the SQLite C API: a connection opened in WAL
// mode with a busy timeout and foreign keys, prepared statements, and
// IMMEDIATE transactions. Every SQLite failure becomes a UserError whose
// message starts with the database file name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <chrono>
#include <thread>

#include "util/error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace macroscope::catalog {

// How long a connection waits for another process's lock, in milliseconds.
// MACROSCOPE_CATALOG_TIMEOUT_MS overrides it (the tests use a short one).
int BusyTimeoutMs();

// The UserError for a lock held longer than the busy timeout.
class BusyError : public UserError {
 public:
  using UserError::UserError;
};

// Runs `step` again while it fails with BusyError, for at most the busy
// timeout: SQLite reports some lock conflicts (switching to WAL, a
// concurrent recovery) at once, without waiting.
template <typename F>
void RetryWhileBusy(int busy_timeout_ms, F&& step);

class Database {
 public:
  // Opens (creating if needed) the file. Throws UserError naming it.
  Database(const std::string& path, int busy_timeout_ms);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more statements without results.
  void Exec(std::string_view sql);
  int64_t LastInsertId() const;
  int Changes() const;
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }

  // Throws the UserError for result code `rc`; `what` says what was done.
  [[noreturn]] void Fail(int rc, std::string_view what) const;

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
  int busy_timeout_ms_ = 0;
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

template <typename F>
void RetryWhileBusy(int busy_timeout_ms, F&& step) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
  for (;;) {
    try {
      step();
      return;
    } catch (const BusyError&) {
      if (std::chrono::steady_clock::now() >= deadline) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
}

}  // namespace macroscope::catalog
