// What an Nsight Systems SQLite export (`nsys export --type sqlite`) holds:
// its tables and their columns, read from the file itself, so that the
// reader asks only for what this schema version has (tables are created
// lazily, and columns come and go between versions).
#pragma once

#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "util/sqlite.h"

namespace macroscope::nsys {

class Schema {
 public:
  // Reads the table names of `db` (sqlite_master).
  explicit Schema(sqlite::Database& db);

  bool HasTable(std::string_view table) const { return tables_.count(table) != 0; }
  bool HasTableStartingWith(std::string_view prefix) const;
  bool HasColumn(std::string_view table, std::string_view column);

  // "SELECT a, b, ... FROM table": each column the table lacks is a NULL in
  // its place, so that one query reads every schema version.
  std::string Select(std::string_view table, std::initializer_list<std::string_view> columns);

  // Throws UserError "FILE: table T has no column C (...)" for the first
  // column of `columns` the table lacks.
  void Require(std::string_view table, std::initializer_list<std::string_view> columns);

  // True when the tables are Nsight's: StringIds, and a TARGET_INFO_*,
  // CUPTI_ACTIVITY_KIND_* or NVTX_EVENTS table.
  bool IsNsightExport() const;

 private:
  sqlite::Database& db_;
  // Table -> its columns, read on first use (PRAGMA table_info).
  std::map<std::string, std::set<std::string, std::less<>>, std::less<>> tables_;
  std::set<std::string, std::less<>> columns_read_;
};

// True when `path` is an Nsight Systems SQLite export: `head` (the file's
// first bytes) starts with SQLite's header and the tables are Nsight's.
bool LooksLikeNsys(const std::string& path, std::string_view head);

}  // namespace macroscope::nsys
