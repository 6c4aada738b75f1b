// The runs of workflows kept in the catalog (schema version 2).
#include <chrono>
#include <ctime>

#include "catalog/catalog.h"

namespace macroscope::catalog {

namespace {

// Now, ISO 8601 UTC to the millisecond: two runs in one second stay ordered.
std::string Now() {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[40];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03dZ", buffer, static_cast<int>(ms));
  return out;
}

RunRecord ReadRun(Statement& s) {
  RunRecord run{s.Int(0), s.Text(1), s.Text(2), s.Text(3), s.Text(4), s.Text(5), s.Text(6), s.Text(7), {}, {}};
  if (!s.IsNull(8)) run.rerun_of = s.Int(8);
  return run;
}

void ReadFiles(Database& db, RunRecord& run) {
  Statement f(db, "SELECT role, path, bytes, checksum FROM run_files WHERE run_id = ?1 ORDER BY role, rowid");
  f.BindInt(1, run.id);
  while (f.Step()) run.files.push_back({f.Text(0), f.Text(1), f.Int(2), f.Text(3)});
}

constexpr const char* kRunColumns =
    "SELECT id, workflow_path, workflows, parameters, started_at, ended_at, outcome, message, rerun_of FROM runs ";

}  // namespace

int64_t Catalog::StartRun(const RunRecord& run) {
  Transaction transaction(db_);
  Statement s(db_,
              "INSERT INTO runs (workflow_path, workflows, parameters, started_at, rerun_of) VALUES (?1, ?2, ?3, ?4, ?5)");
  s.BindText(1, run.workflow_path).BindText(2, run.workflows).BindText(3, run.parameters).BindText(4, Now());
  if (run.rerun_of) s.BindInt(5, *run.rerun_of);
  else s.BindNull(5);
  s.Run();
  const int64_t id = db_.LastInsertId();
  transaction.Commit();
  return id;
}

void Catalog::EndRun(int64_t id, std::string_view outcome, std::string_view message,
                     const std::vector<RunFile>& files) {
  Transaction transaction(db_);
  Statement s(db_, "UPDATE runs SET ended_at = ?2, outcome = ?3, message = ?4 WHERE id = ?1");
  s.BindInt(1, id).BindText(2, Now()).BindText(3, outcome).BindText(4, message).Run();
  Statement f(db_, "INSERT OR REPLACE INTO run_files (run_id, role, path, bytes, checksum) VALUES (?1, ?2, ?3, ?4, ?5)");
  for (const RunFile& file : files) {
    f.BindInt(1, id).BindText(2, file.role).BindText(3, file.path).BindInt(4, file.bytes).BindText(5, file.checksum);
    f.Run();
    f.Reset();
  }
  transaction.Commit();
}

std::vector<RunRecord> Catalog::Runs() {
  std::vector<RunRecord> runs;
  Statement s(db_, std::string(kRunColumns) + "ORDER BY id");
  while (s.Step()) runs.push_back(ReadRun(s));
  for (RunRecord& run : runs) ReadFiles(db_, run);
  return runs;
}

std::optional<RunRecord> Catalog::FindRun(int64_t id) {
  Statement s(db_, std::string(kRunColumns) + "WHERE id = ?1");
  s.BindInt(1, id);
  if (!s.Step()) return std::nullopt;
  RunRecord run = ReadRun(s);
  ReadFiles(db_, run);
  return run;
}

}  // namespace macroscope::catalog
