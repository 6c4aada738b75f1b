#include "formats/nsys/nsys_schema.h"

#include "util/error.h"

namespace macroscope::nsys {

namespace {

// An identifier in double quotes, as SQL quotes table and column names.
std::string QuoteName(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

constexpr std::string_view kSqliteHeader{"SQLite format 3\0", 16};

}  // namespace

Schema::Schema(sqlite::Database& db) : db_(db) {
  sqlite::Statement s(db_, "SELECT name FROM sqlite_master WHERE type = 'table'");
  while (s.Step()) tables_[s.Text(0)];
}

bool Schema::HasTableStartingWith(std::string_view prefix) const {
  auto it = tables_.lower_bound(prefix);
  return it != tables_.end() && std::string_view(it->first).substr(0, prefix.size()) == prefix;
}

bool Schema::HasColumn(std::string_view table, std::string_view column) {
  auto it = tables_.find(table);
  if (it == tables_.end()) return false;
  if (!columns_read_.count(table)) {
    sqlite::Statement s(db_, "SELECT name FROM pragma_table_info(?1)");
    s.BindText(1, table);
    while (s.Step()) it->second.insert(s.Text(0));
    columns_read_.insert(std::string(table));
  }
  return it->second.count(column) != 0;
}

std::string Schema::Select(std::string_view table, std::initializer_list<std::string_view> columns) {
  std::string sql = "SELECT ";
  bool first = true;
  for (std::string_view c : columns) {
    if (!first) sql += ", ";
    first = false;
    sql += HasColumn(table, c) ? QuoteName(c) : "NULL";
  }
  return sql + " FROM " + QuoteName(table);
}

void Schema::Require(std::string_view table, std::initializer_list<std::string_view> columns) {
  for (std::string_view c : columns)
    if (!HasColumn(table, c))
      throw UserError(db_.path() + ": table " + std::string(table) + " has no column " + std::string(c) +
                      " (not an Nsight Systems export this reader knows)");
}

bool Schema::IsNsightExport() const {
  return HasTable("StringIds") && (HasTableStartingWith("TARGET_INFO_") ||
                                   HasTableStartingWith("CUPTI_ACTIVITY_KIND_") || HasTable("NVTX_EVENTS"));
}

bool LooksLikeNsys(const std::string& path, std::string_view head) {
  if (head.substr(0, kSqliteHeader.size()) != kSqliteHeader) return false;
  try {
    sqlite::Database db(path, sqlite::Database::Mode::kReadOnly, "the Nsight Systems export");
    return Schema(db).IsNsightExport();
  } catch (const UserError&) {
    return false;  // an SQLite file whose tables cannot be read is no trace of ours
  }
}

}  // namespace macroscope::nsys
