// The catalog's SQLite connection: util/sqlite.h's wrapper opened in WAL
// mode with a busy timeout and foreign keys. Every SQLite failure becomes a
// UserError whose message starts with the database file name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <chrono>
#include <thread>

#include "util/error.h"
#include "util/sqlite.h"

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

// The catalog's connection: util/sqlite.h's, opened (created if needed) in
// WAL mode with a busy timeout and foreign keys, with the catalog's own
// messages for locks and for files that are not a catalog.
class Database : public sqlite::Database {
 public:
  // Opens (creating if needed) the file. Throws UserError naming it.
  Database(const std::string& path, int busy_timeout_ms);

  [[noreturn]] void Fail(int rc, std::string_view what) const override;

 private:
  int busy_timeout_ms_ = 0;
};

using Statement = sqlite::Statement;
using Transaction = sqlite::Transaction;

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
