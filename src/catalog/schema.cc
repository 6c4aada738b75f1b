#include "catalog/schema.h"

#include <string>

#include "util/error.h"

namespace macroscope::catalog {

namespace {

// Version 1: traces, their free parameters, annotations and bookmarks,
// saved aggregations. Never edit a released script: append a new one.
constexpr std::string_view kVersion1 = R"sql(
CREATE TABLE traces (
  id           INTEGER PRIMARY KEY,
  path         TEXT NOT NULL UNIQUE,
  application  TEXT NOT NULL DEFAULT '',
  board        TEXT NOT NULL DEFAULT '',
  os           TEXT NOT NULL DEFAULT '',
  cpus         INTEGER,
  events       INTEGER NOT NULL DEFAULT 0,
  producers    INTEGER NOT NULL DEFAULT 0,
  first_time   REAL NOT NULL DEFAULT 0,
  last_time    REAL NOT NULL DEFAULT 0,
  time_unit    TEXT NOT NULL DEFAULT 's',
  tracing_date TEXT NOT NULL DEFAULT '',
  description  TEXT NOT NULL DEFAULT '',
  added_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE trace_parameters (
  trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
  key      TEXT NOT NULL,
  value    TEXT NOT NULL,
  PRIMARY KEY (trace_id, key)
);
CREATE TABLE annotations (
  id         INTEGER PRIMARY KEY,
  trace_id   INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
  kind       TEXT NOT NULL CHECK (kind IN ('annotation', 'bookmark')),
  start_time REAL NOT NULL,
  end_time   REAL NOT NULL,
  text       TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX annotations_by_trace ON annotations(trace_id);
CREATE TABLE annotation_containers (
  annotation_id INTEGER NOT NULL REFERENCES annotations(id) ON DELETE CASCADE,
  position      INTEGER NOT NULL,
  container     TEXT NOT NULL,
  PRIMARY KEY (annotation_id, position)
);
CREATE TABLE aggregations (
  id         INTEGER PRIMARY KEY,
  trace_id   INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
  parameters TEXT NOT NULL,
  result     TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX aggregations_by_trace ON aggregations(trace_id);
)sql";

// Version 2: runs of workflows (macroscope run), with the files they read
// and wrote.
constexpr std::string_view kVersion2 = R"sql(
CREATE TABLE runs (
  id            INTEGER PRIMARY KEY,
  workflow_path TEXT NOT NULL,
  workflows     TEXT NOT NULL,
  parameters    TEXT NOT NULL,
  started_at    TEXT NOT NULL,
  ended_at      TEXT NOT NULL DEFAULT '',
  outcome       TEXT NOT NULL DEFAULT 'running' CHECK (outcome IN ('running', 'succeeded', 'failed')),
  message       TEXT NOT NULL DEFAULT '',
  rerun_of      INTEGER REFERENCES runs(id) ON DELETE SET NULL
);
CREATE TABLE run_files (
  run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  role     TEXT NOT NULL CHECK (role IN ('input', 'output')),
  path     TEXT NOT NULL,
  bytes    INTEGER NOT NULL,
  checksum TEXT NOT NULL,
  PRIMARY KEY (run_id, role, path)
);
)sql";

// Version 3: groups of traces, the runs of one experiment (macroscope
// campaign --group): a name and its traces' paths in the order added.
constexpr std::string_view kVersion3 = R"sql(
CREATE TABLE trace_groups (
  name       TEXT PRIMARY KEY,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE trace_group_members (
  group_name TEXT NOT NULL REFERENCES trace_groups(name) ON DELETE CASCADE,
  position   INTEGER NOT NULL,
  path       TEXT NOT NULL,
  PRIMARY KEY (group_name, path)
);
)sql";

int ReadPragma(Database& db, const char* sql) {
  Statement s(db, sql);
  return s.Step() ? static_cast<int>(s.Int(0)) : 0;
}

// Refuses files this program must not touch. Returns the current version.
int CheckCatalog(Database& db) {
  const int version = ReadPragma(db, "PRAGMA user_version");
  const int application = ReadPragma(db, "PRAGMA application_id");
  if (application != 0 && application != kApplicationId)
    throw UserError(db.path() + ": not a macroscope catalog (an SQLite database of another application)");
  if (version > LatestSchemaVersion())
    throw UserError(db.path() + ": catalog schema version " + std::to_string(version) +
                    " was made by a newer macroscope (this one knows versions up to " +
                    std::to_string(LatestSchemaVersion()) + ")");
  if (version == 0 && ReadPragma(db, "SELECT count(*) FROM sqlite_schema") != 0)
    throw UserError(db.path() + ": not a macroscope catalog (an SQLite database with other tables)");
  return version;
}

}  // namespace

const std::vector<std::string_view>& Migrations() {
  static const std::vector<std::string_view> migrations = {kVersion1, kVersion2, kVersion3};
  return migrations;
}

int LatestSchemaVersion() { return static_cast<int>(Migrations().size()); }

void Migrate(Database& db) {
  if (CheckCatalog(db) == LatestSchemaVersion()) return;
  Transaction transaction(db);
  // Another process may have migrated between the check and the lock.
  int version = CheckCatalog(db);
  for (; version < LatestSchemaVersion(); ++version) db.Exec(Migrations()[static_cast<size_t>(version)]);
  db.Exec("PRAGMA application_id = " + std::to_string(kApplicationId) + "; PRAGMA user_version = " +
          std::to_string(version));
  transaction.Commit();
}

}  // namespace macroscope::catalog
