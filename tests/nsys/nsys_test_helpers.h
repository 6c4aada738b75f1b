// What the Nsight Systems tests share: the sqlite3 CLI (the independent
// reading every count is compared with), a small Nsight-like export made
// with it, and `macroscope dump` counted per type and value.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace macroscope::nsys_test {

// The SQL of a small export in the shape of a recent Nsight Systems schema,
// with the tables and columns the reader uses (docs/nsys.md).
extern const char* const kSyntheticSql;

// The SQL of a generated export of 4 * `calls_per_thread` CUDA calls on
// four threads and what they launch, made to try what the reader must do
// in order (nested and overlapping spans with equal starts and ends, cut
// ranges, ranges never ended beside one ending at the trace end, backtrace
// spans, several kernels of one correlationId, GPU work no call launched or
// without a process, marks, rows skipped or ending before their start);
// `session_start`: its utcEpochNs, that places it beside other files.
std::string GeneratedSql(int calls_per_thread, int64_t session_start);

// Runs `sqlite3 FILE QUERY`; fails the test unless it exits 0. Returns its
// standard output.
std::string Sqlite(const std::string& file, const std::string& query);

// A query giving one integer.
int64_t SqliteCount(const std::string& file, const std::string& query);

// A query giving "KEY|COUNT" rows, as a map.
std::map<std::string, uint64_t> SqliteCounts(const std::string& file, const std::string& query);

// Creates `file` from `sql` with the sqlite3 CLI.
void MakeDatabase(const std::string& file, const std::string& sql);

// One line of `macroscope dump`: its kind (State, Event, Link, Container,
// ...) and its comma-separated fields.
struct DumpLine {
  std::string kind;
  std::vector<std::string> fields;
};
std::vector<DumpLine> Dump(const std::string& file);

// Entities of the dump per "TYPE|VALUE" for one kind ("State", "Event", "Link").
std::map<std::string, uint64_t> DumpCounts(const std::vector<DumpLine>& dump, const std::string& kind);

}  // namespace macroscope::nsys_test
