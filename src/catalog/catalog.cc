#include "catalog/catalog.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "catalog/schema.h"
#include "util/error.h"

namespace macroscope::catalog {

namespace {

std::string PrepareDirectory(const std::string& path) {
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) throw UserError(path + ": cannot create the catalog directory: " + ec.message());
  }
  return path;
}

constexpr const char* kTraceColumns =
    "SELECT id, path, application, board, os, cpus, events, producers, first_time, last_time, time_unit, "
    "tracing_date, description, added_at FROM traces ";

TraceRecord ReadTrace(const Statement& s) {
  TraceRecord r;
  r.id = s.Int(0);
  r.path = s.Text(1);
  r.application = s.Text(2);
  r.board = s.Text(3);
  r.os = s.Text(4);
  if (!s.IsNull(5)) r.cpus = s.Int(5);
  r.events = s.Int(6);
  r.producers = s.Int(7);
  r.first_time = s.Double(8);
  r.last_time = s.Double(9);
  r.time_unit = s.Text(10);
  r.tracing_date = s.Text(11);
  r.description = s.Text(12);
  r.added_at = s.Text(13);
  return r;
}

}  // namespace

void FillFromTrace(const Trace& trace, uint64_t events, TraceRecord& record) {
  record.events = static_cast<int64_t>(events);
  record.producers = trace.containers().empty() ? 0 : static_cast<int64_t>(trace.containers().size() - 1);
  record.first_time = trace.start_time();
  record.last_time = trace.end_time();
}

std::string CatalogPath(std::string_view path) {
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(std::filesystem::path(path), ec);
  if (ec) return std::string(path);
  std::filesystem::path normal = std::filesystem::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal().string() : normal.string();
}

std::string Catalog::DefaultPath() {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg && *xdg) return (std::filesystem::path(xdg) / "macroscope" / "catalog.sqlite").string();
  const char* home = std::getenv("HOME");
  if (home && *home)
    return (std::filesystem::path(home) / ".local" / "share" / "macroscope" / "catalog.sqlite").string();
  throw UserError("no default catalog location (neither XDG_DATA_HOME nor HOME is set); use --catalog FILE");
}

Catalog::Catalog(const std::string& path, int busy_timeout_ms) : db_(PrepareDirectory(path), busy_timeout_ms) {
  RetryWhileBusy(busy_timeout_ms, [this] { Migrate(db_); });
}

int64_t Catalog::AddTrace(const TraceRecord& r) {
  Transaction transaction(db_);
  {
    Statement existing(db_, "SELECT id FROM traces WHERE path = ?1");
    existing.BindText(1, r.path);
    if (existing.Step())
      throw UserError(db_.path() + ": " + r.path + " is already in the catalog (id " +
                      std::to_string(existing.Int(0)) + ")");
  }
  Statement insert(db_,
                   "INSERT INTO traces (path, application, board, os, cpus, events, producers, first_time, "
                   "last_time, time_unit, tracing_date, description) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
  insert.BindText(1, r.path).BindText(2, r.application).BindText(3, r.board).BindText(4, r.os);
  if (r.cpus) insert.BindInt(5, *r.cpus);
  else insert.BindNull(5);
  insert.BindInt(6, r.events).BindInt(7, r.producers).BindDouble(8, r.first_time).BindDouble(9, r.last_time);
  insert.BindText(10, r.time_unit).BindText(11, r.tracing_date).BindText(12, r.description);
  insert.Run();
  const int64_t id = db_.LastInsertId();
  Statement parameter(db_, "INSERT OR REPLACE INTO trace_parameters (trace_id, key, value) VALUES (?1, ?2, ?3)");
  for (auto& [key, value] : r.parameters) {
    parameter.Reset();
    parameter.BindInt(1, id).BindText(2, key).BindText(3, value).Run();
  }
  transaction.Commit();
  return id;
}

std::optional<TraceRecord> Catalog::FindWhere(const char* where, const std::string& key, bool by_id) {
  Statement s(db_, std::string(kTraceColumns) + where);
  if (by_id) s.BindInt(1, std::strtoll(key.c_str(), nullptr, 10));
  else s.BindText(1, key);
  if (!s.Step()) return std::nullopt;
  TraceRecord r = ReadTrace(s);
  Statement p(db_, "SELECT key, value FROM trace_parameters WHERE trace_id = ?1 ORDER BY key");
  p.BindInt(1, r.id);
  while (p.Step()) r.parameters.emplace_back(p.Text(0), p.Text(1));
  return r;
}

std::optional<TraceRecord> Catalog::Find(std::string_view id_or_path) {
  const std::string key(id_or_path);
  const bool digits = !key.empty() && key.size() < 19 &&
                      std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (digits) {
    if (auto r = FindWhere("WHERE id = ?1", key, true)) return r;
  }
  return FindWhere("WHERE path = ?1", CatalogPath(key), false);
}

std::vector<TraceRecord> Catalog::List() {
  std::vector<TraceRecord> out;
  Statement s(db_, std::string(kTraceColumns) + "ORDER BY id");
  while (s.Step()) out.push_back(ReadTrace(s));
  Statement p(db_, "SELECT key, value FROM trace_parameters WHERE trace_id = ?1 ORDER BY key");
  for (auto& r : out) {
    p.Reset();
    p.BindInt(1, r.id);
    while (p.Step()) r.parameters.emplace_back(p.Text(0), p.Text(1));
  }
  return out;
}

bool Catalog::Remove(int64_t trace_id) {
  Transaction transaction(db_);
  Statement s(db_, "DELETE FROM traces WHERE id = ?1");
  s.BindInt(1, trace_id).Run();
  const bool removed = db_.Changes() > 0;
  transaction.Commit();
  return removed;
}

int64_t Catalog::AddAnnotation(int64_t trace_id, double start, double end,
                               const std::vector<std::string>& containers, std::string_view text,
                               std::string_view kind) {
  if (kind != "annotation" && kind != "bookmark")
    throw UserError("annotation kind must be 'annotation' or 'bookmark', not '" + std::string(kind) + "'");
  if (!(start <= end)) throw UserError("annotation start must not be after its end");
  Transaction transaction(db_);
  Statement s(db_,
              "INSERT INTO annotations (trace_id, kind, start_time, end_time, text) VALUES (?1, ?2, ?3, ?4, ?5)");
  s.BindInt(1, trace_id).BindText(2, kind).BindDouble(3, start).BindDouble(4, end).BindText(5, text).Run();
  const int64_t id = db_.LastInsertId();
  Statement c(db_, "INSERT INTO annotation_containers (annotation_id, position, container) VALUES (?1, ?2, ?3)");
  for (size_t i = 0; i < containers.size(); ++i) {
    c.Reset();
    c.BindInt(1, id).BindInt(2, static_cast<int64_t>(i)).BindText(3, containers[i]).Run();
  }
  transaction.Commit();
  return id;
}

std::vector<Annotation> Catalog::Annotations(int64_t trace_id) {
  std::vector<Annotation> out;
  Statement s(db_,
              "SELECT id, trace_id, kind, start_time, end_time, text, created_at FROM annotations "
              "WHERE trace_id = ?1 ORDER BY start_time, id");
  s.BindInt(1, trace_id);
  while (s.Step())
    out.push_back({s.Int(0), s.Int(1), s.Text(2), s.Double(3), s.Double(4), {}, s.Text(5), s.Text(6)});
  Statement c(db_, "SELECT container FROM annotation_containers WHERE annotation_id = ?1 ORDER BY position");
  for (auto& a : out) {
    c.Reset();
    c.BindInt(1, a.id);
    while (c.Step()) a.containers.push_back(c.Text(0));
  }
  return out;
}

int64_t Catalog::SaveAggregation(int64_t trace_id, std::string_view parameters_json, std::string_view result_json) {
  Transaction transaction(db_);
  Statement s(db_, "INSERT INTO aggregations (trace_id, parameters, result) VALUES (?1, ?2, ?3)");
  s.BindInt(1, trace_id).BindText(2, parameters_json).BindText(3, result_json).Run();
  const int64_t id = db_.LastInsertId();
  transaction.Commit();
  return id;
}

std::vector<SavedAggregation> Catalog::Aggregations(int64_t trace_id) {
  std::vector<SavedAggregation> out;
  Statement s(db_,
              "SELECT id, trace_id, parameters, result, created_at FROM aggregations WHERE trace_id = ?1 "
              "ORDER BY id");
  s.BindInt(1, trace_id);
  while (s.Step()) out.push_back({s.Int(0), s.Int(1), s.Text(2), s.Text(3), s.Text(4)});
  return out;
}

}  // namespace macroscope::catalog
